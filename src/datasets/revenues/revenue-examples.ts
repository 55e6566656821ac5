import { figurePointId } from '../kit/money-figures/figure-point-id.js';

/**
 * Apple Inc. in the demo (AAPL on Nasdaq Global Select, CIK 0000320193) and the 10-Ks of its
 * fiscal 2025 and 2024 (SEC accessions 0000320193-25-000079, -24-000123); adidas AG (ADS on
 * Xetra) and its 2023 annual report, a figure reported in EUR.
 */
const APPLE_ID = '881c005d-55e9-5f65-b1af-0632fd1b08ab';
const TEN_K = { 2025: '14c6f503-5c02-5f69-8b7e-e7d5df3aaf92', 2024: '5993d98f-37f4-566a-8eab-721376cc5f7b' } as const;
const ADIDAS = { id: 'eec95766-1e63-581e-bc61-c45da5fc31ea', report2023: '78ffdd21-8311-5d52-8bc3-7a2c7d5096db' } as const;

const traceUrl = (publicUrl: string, documentId: string, period: number) =>
  `${publicUrl}/trace/${figurePointId({ pointKey: 'revenue' }, documentId, period)}`;

/** Apple's revenue of a fiscal year, reported in USD in its 10-K, as the demo serves it. */
function appleRevenue(publicUrl: string, period: 2025 | 2024, value: number) {
  return {
    year_of_disclosure: period,
    reporting_period: period,
    metric: 'Total Revenue',
    value,
    ccy: 'USD',
    original_value: value,
    original_ccy: 'USD',
    company_id: APPLE_ID,
    document_id: TEN_K[period],
    traceability_source_url: traceUrl(publicUrl, TEN_K[period], period),
  };
}

/** What the demo answers the batch job for adidas's 2021: no processed document covers it. */
const ADIDAS_NO_PERIOD = {
  status: 404,
  detail:
    'No data for reporting period 2021 of the given ticker on the given mic_code: not covered by any processed document. ' +
    'Available periods: 2023, 2022 (the free periods endpoint lists them).',
  available_periods: [2023, 2022],
};

/** The OpenAPI examples of revenues' operations: real answers of the demo (test/openapi.examples.test.ts replays them). */
export function revenueExamples(publicUrl: string): Record<string, unknown> {
  const fy2025 = appleRevenue(publicUrl, 2025, 416_161_000_000);
  const fy2024 = appleRevenue(publicUrl, 2024, 391_035_000_000);
  const adidas2023 = {
    year_of_disclosure: 2024,
    reporting_period: 2023,
    metric: 'Total Revenue',
    value: 23_168_342_880,
    ccy: 'USD',
    original_value: 21_427_000_000,
    original_ccy: 'EUR',
    company_id: ADIDAS.id,
    document_id: ADIDAS.report2023,
    traceability_source_url: traceUrl(publicUrl, ADIDAS.report2023, 2023),
  };
  return {
    getRevenues: [fy2025],
    getRevenuePeriods: {
      company_id: APPLE_ID,
      reporting_periods: [
        2025, 2024, 2023, 2022, 2021, 2020, 2019, 2018, 2017, 2016, 2015, 2014, 2013, 2012, 2011, 2010, 2009, 2008, 2007,
      ],
    },
    getRevenuesHistory: {
      company_id: APPLE_ID,
      periods: [
        { reporting_period: 2025, records: [fy2025] },
        { reporting_period: 2024, records: [fy2024] },
      ],
    },
    getRevenuesBatch: { results: [{ status: 200, data: [fy2025] }, { status: 200, data: [adidas2023] }, ADIDAS_NO_PERIOD] },
  };
}
