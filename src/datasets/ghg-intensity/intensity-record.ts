import { type Static, Type } from '@sinclair/typebox';
import { GHG_SCOPES } from '../ghg-emissions/ghg-record.js';

/** An intensity record of `GET /api/v1/ghg-intensity` (design §13.4). */
export const GhgIntensityRecordSchema = Type.Object(
  {
    reporting_period: Type.Integer(),
    scope: Type.Union(GHG_SCOPES.map((s) => Type.Literal(s))),
    value: Type.Number({
      description: 'Emissions ÷ (USD revenue ÷ 1,000,000), rounded half away from zero to 3 decimals.',
    }),
    unit: Type.Literal('tCO2e/USD million'),
    company_id: Type.String({ format: 'uuid' }),
    emissions_document_id: Type.String({ format: 'uuid', description: 'The report of the (latest) emission figure.' }),
    revenue_document_id: Type.String({ format: 'uuid', description: 'The document of the (latest) revenue figure.' }),
    traceability_source_url: Type.String({ format: 'uri' }),
  },
  { additionalProperties: false, title: 'GhgIntensityRecord' },
);
export type GhgIntensityRecord = Static<typeof GhgIntensityRecordSchema>;
