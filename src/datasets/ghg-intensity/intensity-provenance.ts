import { type Static, Type } from '@sinclair/typebox';
import type { GhgTraceFacts } from '../ghg-emissions/ghg-facts.js';
import { GhgDocumentSchema, ghgDocumentOf } from '../ghg-emissions/ghg-provenance.js';
import { GHG_SCOPES } from '../ghg-emissions/ghg-record.js';
import { documentProvenance, documentProvenanceSchema } from '../kit/document-provenance.js';
import type { TraceFacts } from '../kit/money-figures/figure-facts.js';

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

/**
 * An intensity's provenance as JSON (design §11.3): both source documents for anyone with a key;
 * the figures only for an account that bought the company-period in the ghg-intensity dataset
 * (buying its emissions or revenues does not show them).
 */
export const GhgIntensityProvenanceSchema = Type.Object(
  {
    data_point_id: Type.String({
      pattern: `^${UUID}~${UUID}$`,
      description: 'The emission data point id and the revenue data point id, joined by "~".',
    }),
    company_id: Type.String({ format: 'uuid' }),
    company_name: Type.String(),
    dataset: Type.Literal('ghg-intensity'),
    scope: Type.Union(GHG_SCOPES.map((s) => Type.Literal(s))),
    reporting_period: Type.Integer(),
    emissions_document: GhgDocumentSchema,
    revenue_document: documentProvenanceSchema({ sourceUrl: 'Where the document is published.' }),
    values_included: Type.Boolean({
      description: 'True when the caller’s account bought this company-period in ghg-intensity.',
    }),
    values: Type.Union(
      [
        Type.Object(
          {
            value: Type.Number({
              description: 'Emissions ÷ (USD revenue ÷ 1,000,000), rounded half away from zero to 3 decimals.',
            }),
            unit: Type.Literal('tCO2e/USD million'),
            emissions_value: Type.Integer({ description: 'The emission figure, in tCO2e.' }),
            revenue_usd: Type.Integer({ description: 'The revenue figure, in USD.' }),
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      { description: 'The figures; null unless the caller’s account bought this company-period in ghg-intensity.' },
    ),
    traceability_source_url: Type.String({ format: 'uri', description: 'The human-readable page of this data point.' }),
  },
  { additionalProperties: false, title: 'GhgIntensityProvenance' },
);
export type GhgIntensityProvenance = Static<typeof GhgIntensityProvenanceSchema>;

export function ghgIntensityProvenance(
  id: string,
  emission: GhgTraceFacts,
  revenue: TraceFacts,
  values: GhgIntensityProvenance['values'],
  publicUrl: string,
): GhgIntensityProvenance {
  const r = revenue.document;
  return {
    data_point_id: id,
    company_id: emission.companyId,
    company_name: emission.companyName,
    dataset: 'ghg-intensity',
    scope: emission.scope as GhgIntensityProvenance['scope'],
    reporting_period: emission.period,
    emissions_document: ghgDocumentOf(emission),
    revenue_document: documentProvenance(r),
    values_included: values !== null,
    values,
    traceability_source_url: `${publicUrl}/trace/${id}`,
  };
}
