/** Apple Inc. in the demo, and its Environmental Progress Report 2021 (calendar 2020, page 67). */
const APPLE_ID = '881c005d-55e9-5f65-b1af-0632fd1b08ab';
const ENVIRONMENT_2021 = '707943ce-3759-5235-9180-9b71125eabd8';
/** Its 2020 Scope 1 and Scope 3 data points. */
export const APPLE_2020_SCOPES = [
  { scope: '1', value: 47430, point: '9ec6aa20-be6f-512b-8b24-dda9a7db0b42' },
  { scope: '3', value: 22550000, point: 'ad5b1180-c4b9-5769-836b-46f19c89e0b3' },
] as const;

/**
 * What the demo answers the batch jobs for adidas, whose reports give no emission figure: a
 * period no document of the dataset covers, and no period at all.
 */
export function ghgNoPeriod(period: number) {
  return {
    status: 404,
    detail:
      `No data for reporting period ${period} of the given ticker on the given mic_code: not covered by any processed document. ` +
      'The company has no available period in this dataset yet.',
    available_periods: [],
  };
}

/** The OpenAPI examples of the emissions' operations: real answers of the demo (test/openapi.examples.test.ts replays them). */
export function ghgEmissionExamples(publicUrl: string): Record<string, unknown> {
  const records = APPLE_2020_SCOPES.map(({ scope, value, point }) => ({
    year_of_disclosure: 2021,
    reporting_period: 2020,
    scope,
    value,
    unit: 'tCO2e',
    company_id: APPLE_ID,
    document_id: ENVIRONMENT_2021,
    traceability_source_url: `${publicUrl}/trace/${point}`,
  }));
  return {
    getGhgEmissions: records,
    getGhgEmissionsPeriods: { company_id: APPLE_ID, reporting_periods: [2020] },
    getGhgEmissionsHistory: { company_id: APPLE_ID, periods: [{ reporting_period: 2020, records }] },
    getGhgEmissionsBatch: { results: [{ status: 200, data: records }, ghgNoPeriod(2023), ghgNoPeriod(2021)] },
  };
}
