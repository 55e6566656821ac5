import { type Static, Type } from '@sinclair/typebox';
import type { GhgScope } from '../../db/schema.js';

/** Scopes in the order a 200 lists them. */
export const GHG_SCOPES: readonly GhgScope[] = ['1', '2-location', '2-market', '3'];

/** An emission record of `GET /api/v1/ghg-emissions` (design §13.3): exactly these eight fields. */
export const GhgEmissionRecordSchema = Type.Object(
  {
    year_of_disclosure: Type.Integer({
      description:
        'Year the source report was published; when the source gives no publication date, the year after the latest period the report covers.',
    }),
    reporting_period: Type.Integer(),
    scope: Type.Union(
      GHG_SCOPES.map((s) => Type.Literal(s)),
      { description: 'GHG Protocol scope; Scope 2 location- or market-based.' },
    ),
    value: Type.Integer({ description: 'Emissions in tonnes of CO2 equivalent, rounded half away from zero.' }),
    unit: Type.Literal('tCO2e'),
    company_id: Type.String({ format: 'uuid' }),
    document_id: Type.String({ format: 'uuid' }),
    traceability_source_url: Type.String({ format: 'uri' }),
  },
  { additionalProperties: false, title: 'GhgEmissionRecord' },
);
export type GhgEmissionRecord = Static<typeof GhgEmissionRecordSchema>;

/** The year a report was disclosed (design §13.6): shared with every document (`db/disclosure.ts`). */
export { disclosureYear } from '../../db/disclosure.js';

export const scopeRank = (scope: string): number => GHG_SCOPES.indexOf(scope as GhgScope);
