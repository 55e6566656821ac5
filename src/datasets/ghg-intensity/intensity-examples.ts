import { APPLE_2020_SCOPES, ghgNoPeriod } from '../ghg-emissions/ghg-examples.js';

/** Apple Inc. in the demo, its Environmental Progress Report 2021, and its fiscal 2020 10-K and revenue point. */
const APPLE_ID = '881c005d-55e9-5f65-b1af-0632fd1b08ab';
const ENVIRONMENT_2021 = '707943ce-3759-5235-9180-9b71125eabd8';
const TEN_K_2020 = 'aa3c33d6-5528-5fb8-8471-202441d27dd3';
const REVENUE_2020_POINT = '89ae49f0-d48b-5c69-8e62-a018fd5b0fe3';

/** Apple's 2020 Scope 1 and 3 emissions per USD million of its fiscal 2020 revenue. */
const PER_MILLION: Readonly<Record<'1' | '3', number>> = { 1: 0.173, 3: 82.145 };

/** The OpenAPI examples of the intensity's operations: real answers of the demo (test/openapi.examples.test.ts replays them). */
export function ghgIntensityExamples(publicUrl: string): Record<string, unknown> {
  const records = APPLE_2020_SCOPES.map(({ scope, point }) => ({
    reporting_period: 2020,
    scope,
    value: PER_MILLION[scope],
    unit: 'tCO2e/USD million',
    company_id: APPLE_ID,
    emissions_document_id: ENVIRONMENT_2021,
    revenue_document_id: TEN_K_2020,
    traceability_source_url: `${publicUrl}/trace/${point}~${REVENUE_2020_POINT}`,
  }));
  return {
    getGhgIntensity: records,
    getGhgIntensityPeriods: { company_id: APPLE_ID, reporting_periods: [2020] },
    getGhgIntensityHistory: { company_id: APPLE_ID, periods: [{ reporting_period: 2020, records }] },
    getGhgIntensityBatch: { results: [{ status: 200, data: records }, ghgNoPeriod(2023), ghgNoPeriod(2021)] },
  };
}
