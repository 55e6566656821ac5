import type { Dataset } from '../dataset.js';
import { GHG_FIRST_ACCESS_CREDITS, GHG_NO_DATA_CREDITS, GHG_REPEAT_CREDITS } from '../ghg-emissions/ghg-prices.js';
import { ghgIntensityExamples } from './intensity-examples.js';
import { GhgIntensityProvenanceSchema } from './intensity-provenance.js';
import { type GhgIntensityRecord, GhgIntensityRecordSchema } from './intensity-record.js';
import { traceIntensity } from './intensity-trace.js';
import { loadCompanyIntensity } from './load-intensity.js';
import { mockIntensity } from './mock-intensity.js';

/** Emissions per USD million of revenue, from the latest figures of each: `GET /api/v1/ghg-intensity`. */
export const ghgIntensity: Dataset<GhgIntensityRecord> = {
  name: 'ghg-intensity',
  label: 'GHG intensity',
  subscription: 'ghg',
  route: {
    path: '/api/v1/ghg-intensity',
    operationId: 'getGhgIntensity',
    periodsOperationId: 'getGhgIntensityPeriods',
    summary: 'Greenhouse-gas intensity (tCO2e per USD million of revenue) of one company for one reporting period',
    description:
      'Identifiers and reporting_period exactly as /revenues. For each scope with an emission figure and a revenue figure for the company-period ' +
      '(the latest of each): emissions ÷ (USD revenue ÷ 1,000,000), rounded half away from zero to 3 decimals. ' +
      'Its own purchase (buying the absolute figures does not buy it): 25 credits first access, 1 repeat, 1 for a 204. Needs the ghg subscription.',
    tag: 'ghg',
    tagDescription: 'Greenhouse-gas emissions (Scope 1, 2, 3) and their intensity per USD million of revenue',
    ok: 'One intensity per scope that has both an emission and a revenue figure.',
    noData: 'The period is covered, but its emission or its revenue figures are missing.',
    forbidden: 'The account has no subscription to the GHG datasets.',
  },
  recordSchema: GhgIntensityRecordSchema,
  provenanceSchema: GhgIntensityProvenanceSchema,
  prices: { firstAccess: GHG_FIRST_ACCESS_CREDITS, repeat: GHG_REPEAT_CREDITS, noData: GHG_NO_DATA_CREDITS },
  load: loadCompanyIntensity,
  mock: mockIntensity,
  trace: traceIntensity,
  openApiExamples: ghgIntensityExamples,
};
