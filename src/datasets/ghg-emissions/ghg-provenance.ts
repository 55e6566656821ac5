import { type Static, Type } from '@sinclair/typebox';
import type { TraceAccess } from '../dataset.js';
import { documentProvenance, documentProvenanceSchema } from '../kit/document-provenance.js';
import type { GhgTraceFacts } from './ghg-facts.js';
import { GHG_SCOPES } from './ghg-record.js';

/** The report an emission figure came from, as a provenance answer shows it. */
export const GhgDocumentSchema = documentProvenanceSchema({
  sourceUrl: 'Where the report is published.',
  publishedOn: Type.Union([Type.String({ format: 'date' }), Type.Null()], {
    description: 'When the report was published; null when the source gives no date.',
  }),
  more: {
    page: Type.Union([Type.String(), Type.Null()], { description: 'Where in the report the figure is; null when not recorded.' }),
  },
});

/**
 * An emission point's provenance as JSON (design §11.3): the report, its page and the reported
 * unit for anyone with a key; the figures only for an account that bought the company-period in
 * the ghg-emissions dataset (buying its revenues does not show them).
 */
export const GhgEmissionProvenanceSchema = Type.Object(
  {
    data_point_id: Type.String({ format: 'uuid' }),
    company_id: Type.String({ format: 'uuid' }),
    company_name: Type.String(),
    dataset: Type.Literal('ghg-emissions'),
    scope: Type.Union(
      GHG_SCOPES.map((s) => Type.Literal(s)),
      { description: 'GHG Protocol scope; Scope 2 location- or market-based.' },
    ),
    reporting_period: Type.Integer(),
    document: GhgDocumentSchema,
    unit: Type.Literal('tCO2e'),
    values_included: Type.Boolean({
      description: 'True when the caller’s account bought this company-period in ghg-emissions.',
    }),
    values: Type.Union(
      [
        Type.Object(
          {
            value: Type.Integer({ description: 'Emissions in tCO2e, rounded half away from zero.' }),
            source_value: Type.String({ description: 'The figure as the report gives it, an exact decimal.' }),
            source_unit: Type.String({ description: 'The unit the report gives it in (t, kt or Mt of CO2e).' }),
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      { description: 'The figures; null unless the caller’s account bought this company-period in ghg-emissions.' },
    ),
    traceability_source_url: Type.String({ format: 'uri', description: 'The human-readable page of this data point.' }),
  },
  { additionalProperties: false, title: 'GhgEmissionProvenance' },
);
export type GhgEmissionProvenance = Static<typeof GhgEmissionProvenanceSchema>;

export function ghgDocumentOf(f: GhgTraceFacts): Static<typeof GhgDocumentSchema> {
  return { ...documentProvenance(f.document), page: f.page };
}

/** Values as the trace page shows them: bought, and from a report whose figures are served. */
export function ghgEmissionProvenance(f: GhgTraceFacts, access: TraceAccess, publicUrl: string): GhgEmissionProvenance {
  const shown = access === 'bought';
  return {
    data_point_id: f.pointId,
    company_id: f.companyId,
    company_name: f.companyName,
    dataset: 'ghg-emissions',
    scope: f.scope as GhgEmissionProvenance['scope'],
    reporting_period: f.period,
    document: ghgDocumentOf(f),
    unit: 'tCO2e',
    values_included: shown,
    values: shown ? { value: f.value, source_value: f.sourceValue, source_unit: f.sourceUnit } : null,
    traceability_source_url: `${publicUrl}/trace/${f.pointId}`,
  };
}
