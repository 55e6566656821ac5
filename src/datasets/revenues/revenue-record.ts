import { Type } from '@sinclair/typebox';
import { CURRENCIES } from '../../money/currencies.js';

/** The schema of one revenue record: the OpenAPI document and the serializer both come from it. */
export const RevenueRecordSchema = Type.Object(
  {
    year_of_disclosure: Type.Integer({ description: 'Year the source document was published.' }),
    reporting_period: Type.Integer(),
    metric: Type.Literal('Total Revenue'),
    value: Type.Integer({ description: 'Total revenue in USD.' }),
    ccy: Type.Literal('USD'),
    original_value: Type.Union([Type.Integer(), Type.Null()], { description: 'Revenue as reported, in original_ccy.' }),
    original_ccy: Type.Optional(
      Type.Unsafe<(typeof CURRENCIES)[number]>(Type.String({ enum: [...CURRENCIES], description: 'ISO 4217 code as reported.' })),
    ),
    company_id: Type.String({ format: 'uuid' }),
    document_id: Type.String({ format: 'uuid' }),
    traceability_source_url: Type.String({ format: 'uri' }),
  },
  { additionalProperties: false, title: 'RevenueRecord' },
);

/** The revenue record of the API (spec §2.1): exactly these ten fields. */
export interface RevenueRecord {
  year_of_disclosure: number;
  reporting_period: number;
  metric: 'Total Revenue';
  value: number;
  ccy: 'USD';
  original_value: number | null;
  original_ccy: string;
  company_id: string;
  document_id: string;
  traceability_source_url: string;
}
