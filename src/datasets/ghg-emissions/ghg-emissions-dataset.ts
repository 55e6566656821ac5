import type { Dataset } from '../dataset.js';
import { ghgBundle } from './ghg-bundle.js';
import { ghgEmissionExamples } from './ghg-examples.js';
import { GHG_PRICES } from './ghg-prices.js';
import { GhgEmissionProvenanceSchema } from './ghg-provenance.js';
import { type GhgEmissionRecord, GhgEmissionRecordSchema } from './ghg-record.js';
import { traceEmission } from './ghg-trace.js';
import { loadCompanyEmissions } from './load-emissions.js';
import { mockEmissions } from './mock-emissions.js';

/** Company-reported Scope 1, 2 and 3 emissions in tCO2e: `GET /api/v1/ghg-emissions`. */
export const ghgEmissions: Dataset<GhgEmissionRecord> = {
  name: 'ghg-emissions',
  label: 'GHG emissions',
  subscription: 'ghg',
  route: {
    path: '/api/v1/ghg-emissions',
    operationId: 'getGhgEmissions',
    periodsOperationId: 'getGhgEmissionsPeriods',
    summary: 'Greenhouse-gas emissions (Scope 1, 2, 3) of one company for one reporting period, in tCO2e',
    description:
      'Identifiers and reporting_period exactly as /revenues (company_id > isin > lei > ticker (+ mic_code); offsets count the periods with emission figures). ' +
      'Every figure as first reported and restated, ordered by scope, then year_of_disclosure, then document_id. ' +
      'Costs 25 credits for the first access to a company-period, 1 for a repeat, 1 for a 204; errors are free. Needs the ghg subscription.',
    tag: 'ghg',
    tagDescription: 'Greenhouse-gas emissions (Scope 1, 2, 3) and their intensity per USD million of revenue',
    ok: 'Every emission figure of the company-period (first reported and restated), in tCO2e.',
    noData: 'The period is covered by a report with emission figures, but none for this period.',
    forbidden: 'The account has no subscription to the GHG datasets.',
  },
  recordSchema: GhgEmissionRecordSchema,
  provenanceSchema: GhgEmissionProvenanceSchema,
  prices: GHG_PRICES,
  pointsTable: 'ghg_points',
  load: loadCompanyEmissions,
  mock: mockEmissions,
  trace: traceEmission,
  bundle: ghgBundle,
  example: { file: 'ghg_emissions.csv', documentKind: 'sustainability', row: { scope: '1', value: '1.5', unit: 'kt' } },
  openApiExamples: ghgEmissionExamples,
};
