import { figurePointId } from '../kit/money-figures/figure-point-id.js';

/** Apple Inc. in the demo, and the 10-Ks of its fiscal 2025 and 2024 (SEC accessions 0000320193-25-000079, -24-000123). */
const APPLE_ID = '881c005d-55e9-5f65-b1af-0632fd1b08ab';
const TEN_K = { 2025: '14c6f503-5c02-5f69-8b7e-e7d5df3aaf92', 2024: '5993d98f-37f4-566a-8eab-721376cc5f7b' } as const;

/** Apple's net income of a fiscal year (`us-gaap:NetIncomeLoss` of its 10-K), as the demo serves it. */
function appleNetIncome(publicUrl: string, period: 2025 | 2024, value: number) {
  return {
    year_of_disclosure: period,
    reporting_period: period,
    metric: 'Net Income',
    value,
    ccy: 'USD',
    original_value: value,
    original_ccy: 'USD',
    company_id: APPLE_ID,
    document_id: TEN_K[period],
    traceability_source_url: `${publicUrl}/trace/${figurePointId({ pointKey: 'net-income' }, TEN_K[period], period)}`,
  };
}

/**
 * What the demo answers the batch jobs for adidas: its 2023 annual report is a processed financial
 * document without a net income figure in the demo (a 204 within the batch), and 2021 no document covers.
 */
const ADIDAS_NO_FIGURE = { status: 204, data: [] };
const ADIDAS_NO_PERIOD = {
  status: 404,
  detail:
    'No data for reporting period 2021 of the given ticker on the given mic_code: not covered by any processed document. ' +
    'Available periods: 2023 (the free periods endpoint lists them).',
  available_periods: [2023],
};

/** The OpenAPI examples of net income's operations: real answers of the demo (test/openapi.examples.test.ts replays them). */
export function netIncomeExamples(publicUrl: string): Record<string, unknown> {
  const fy2025 = appleNetIncome(publicUrl, 2025, 112_010_000_000);
  const fy2024 = appleNetIncome(publicUrl, 2024, 93_736_000_000);
  return {
    getNetIncome: [fy2025],
    getNetIncomePeriods: {
      company_id: APPLE_ID,
      reporting_periods: [
        2025, 2024, 2023, 2022, 2021, 2020, 2019, 2018, 2017, 2016, 2015, 2014, 2013, 2012, 2011, 2010, 2009, 2008, 2007,
      ],
    },
    getNetIncomeHistory: {
      company_id: APPLE_ID,
      periods: [
        { reporting_period: 2025, records: [fy2025] },
        { reporting_period: 2024, records: [fy2024] },
      ],
    },
    getNetIncomeBatch: { results: [{ status: 200, data: [fy2025] }, ADIDAS_NO_FIGURE, ADIDAS_NO_PERIOD] },
  };
}
