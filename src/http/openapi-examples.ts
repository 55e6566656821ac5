/**
 * The examples of the OpenAPI document (and so of the /docs reference page): real figures of real
 * companies exactly as the demo dataset serves them, ids included, so that a reader can make each
 * call against a demo server and get the answer shown. test/openapi.examples.test.ts calls every
 * example against the demo and fails when an answer no longer matches (the demo changed): update
 * the figures here from its output. Each dataset keeps the examples of its own operations in its
 * folder (`Dataset.openApiExamples`); these are the operations of no dataset.
 *
 * Apple Inc. (AAPL on Nasdaq Global Select, CIK 0000320193): the provenance of its fiscal 2025
 * revenue (10-K, fiscal year ended 27 September 2025: 416,161,000,000 USD).
 */

type Json = Record<string, unknown>;

const APPLE_ID = '881c005d-55e9-5f65-b1af-0632fd1b08ab';

/** Apple's company record, as search, resolve and list answer it. */
export const EXAMPLE_COMPANY = {
  company_id: APPLE_ID,
  company_name: 'Apple Inc.',
  ticker: 'AAPL',
  mic_code: 'XNGS',
  country: 'United States',
};

/** Apple's fiscal 2025 revenue data point, and its 10-K. */
const POINT = { revenue2025: '89655bb7-eb62-5c3f-8b67-3badddfbe060' };
const DOCUMENT = { tenK2025: '14c6f503-5c02-5f69-8b7e-e7d5df3aaf92' };

/** The value each parameter takes in the examples (the reference page's calls are built from them). */
export const PARAMETER_EXAMPLES: Record<string, unknown> = {
  ticker: 'AAPL',
  mic_code: 'XNGS',
  company_id: APPLE_ID,
  // SAP SE's ISIN (the demo has no ISIN for Apple), and Apple's LEI as GLEIF records it (the demo has no LEIs).
  isin: 'DE0007164600',
  lei: 'HWUPKR0MPOU8FGXBT394',
  reporting_period: -1,
  query: '0000320193',
  from: 2024,
  to: 2025,
  last: 2,
  id: POINT.revenue2025,
  after: 0,
  limit: 1,
  type: 'figure.published',
  dataset: 'revenues',
};

/** The bodies of the POST operations' examples: a dataset's batch, company resolution. */
export const REQUEST_EXAMPLES: { batch: Json; resolve: Json } = {
  batch: {
    jobs: [
      { ticker: 'AAPL', reporting_period: -1 },
      { ticker: 'ADS', mic_code: 'XETR', reporting_period: 2023 },
      { ticker: 'ADS', mic_code: 'XETR', reporting_period: 2021 },
    ],
  },
  resolve: { jobs: [{ ticker: 'AAPL', mic_code: 'XNGS' }, { isin: 'DE0007164600' }, { cik: '0000000001' }] },
};

/** The companies a 404 for `ticker=APPL` suggests (its problem details' `did_you_mean`). */
export const NOT_FOUND_EXAMPLE = {
  ticker: 'APPL',
  did_you_mean: [
    { company_id: APPLE_ID, company_name: 'Apple Inc.', ticker: 'AAPL', mic_code: 'XNGS' },
    { company_id: 'de3ed9ba-68cd-5cf6-8cb8-0b9b72a0c841', company_name: 'AppLovin', ticker: 'APP', mic_code: 'XNGS' },
    {
      company_id: 'f1e2b4b2-264b-592d-a52b-fabc2b4d53c4',
      company_name: 'Applied Digital Corp.',
      ticker: 'APLD',
      mic_code: 'XNGS',
    },
  ],
};

/**
 * The 200 answer of every operation, by operationId, for a server whose public base URL is
 * `publicUrl` and whose datasets offer `subscriptions` (a new account holds them all).
 */
export function responseExamples(publicUrl: string, subscriptions: readonly string[]): Record<string, unknown> {
  return {
    searchCompanies: [EXAMPLE_COMPANY],
    resolveCompanies: {
      results: [
        { status: 200, data: EXAMPLE_COMPANY },
        {
          status: 200,
          data: {
            company_id: 'fc74bd92-fd60-5ad0-8646-c336111fccbb',
            company_name: 'SAP SE',
            ticker: 'SAP',
            mic_code: 'XETR',
            country: 'Germany',
          },
        },
        { status: 404, detail: 'No company matches the given cik.' },
      ],
    },
    // The first company of the list (ordered by company_id); the list holds every company of the demo.
    listCompanies: [
      {
        company_id: '0002bfac-873b-5e1b-bb78-fe89d1526f8f',
        company_name: 'CRISPR Therapeutics AG',
        ticker: 'CRSP',
        mic_code: 'XNGS',
        country: null,
      },
    ],
    // Apple's first revenue figure told: the earliest period of the demo's first import.
    listEvents: {
      events: [
        {
          id: 48845,
          type: 'figure.published',
          occurred_at: '2026-01-15T06:00:00.000Z',
          company_id: APPLE_ID,
          dataset: 'revenues',
          reporting_period: 2007,
          document_id: '8392d573-2d9f-5f22-86b7-db44d692a709',
          point_id: '1c2b0420-1d5d-5f53-8c32-464bde11201d',
          merged_company_id: null,
        },
      ],
      next_after: 48845,
    },
    // The demo just installed: its documents served when it was seeded, no source polled yet.
    getStatus: {
      generated_at: '2026-11-28T07:26:59.684Z',
      sources: [
        {
          source: 'bundle',
          last_success_at: null,
          last_error: null,
          served_24h: { documents: 217, median_lag_seconds: 84_093_986, worst_lag_seconds: 178_701_986 },
        },
        {
          source: 'esef',
          last_success_at: null,
          last_error: null,
          served_24h: { documents: 7, median_lag_seconds: 49_188_386, worst_lag_seconds: 136_452_386 },
        },
        {
          source: 'sec',
          last_success_at: null,
          last_error: null,
          served_24h: { documents: 4817, median_lag_seconds: 264_151_586, worst_lag_seconds: 545_037_986 },
        },
      ],
    },
    getAccount: {
      account_id: '5c3e2f7a-1b9d-4c8e-a6f0-2d4b8e1c7a93',
      balance: 975,
      subscription: 'revenues',
      subscriptions: [...subscriptions],
    },
    getProvenance: {
      data_point_id: POINT.revenue2025,
      company_id: APPLE_ID,
      company_name: 'Apple Inc.',
      metric: 'Total Revenue',
      concept: 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax',
      reporting_period: 2025,
      period: { start: '2024-09-29', end: '2025-09-27' },
      filing: {
        form: '10-K',
        accession: '0000320193-25-000079',
        filed_on: '2025-10-31',
        main_document_url: 'https://www.sec.gov/Archives/edgar/data/320193/000032019325000079/aapl-20250927.htm',
      },
      candidates: [],
      bounds: [],
      confirmed_by: [],
      document: {
        document_id: DOCUMENT.tenK2025,
        title: 'Apple Inc.: 10-K filed 2025-10-31 (accession 0000320193-25-000079)',
        source_url: 'https://www.sec.gov/Archives/edgar/data/320193/000032019325000079/0000320193-25-000079-index.htm',
        published_on: '2025-10-31',
        status: 'processed',
      },
      original_ccy: 'USD',
      values_included: true,
      values: {
        value: 416161000000,
        ccy: 'USD',
        original_value: 416161000000,
        original_ccy: 'USD',
        fx_rate: '1',
        fx_source: 'USD figure, no conversion',
      },
      traceability_source_url: `${publicUrl}/trace/${POINT.revenue2025}`,
    },
  };
}
