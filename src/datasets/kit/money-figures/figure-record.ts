import { type TSchema, Type } from '@sinclair/typebox';
import { CURRENCIES } from '../../../money/currencies.js';
import type { MoneyFigureSpec } from './money-figure-spec.js';

/** The schema of one record (design §1.6): the OpenAPI document and the serializer both come from it. */
export function moneyRecordSchema(spec: MoneyFigureSpec): TSchema {
  return Type.Object(
    {
      year_of_disclosure: Type.Integer({
        description:
          'Year the source document was published; when its source gives no publication date (an ESEF report no index lists), the year after the latest period the document covers.',
      }),
      reporting_period: Type.Integer(),
      metric: Type.Literal(spec.metric),
      value: Type.Integer({ description: spec.wording.value }),
      ccy: Type.Literal('USD'),
      original_value: Type.Union([Type.Integer(), Type.Null()], { description: spec.wording.originalValue }),
      original_ccy: Type.Optional(
        Type.Unsafe<(typeof CURRENCIES)[number]>(
          Type.String({ enum: [...CURRENCIES], description: 'ISO 4217 code as reported.' }),
        ),
      ),
      company_id: Type.String({ format: 'uuid' }),
      document_id: Type.String({ format: 'uuid' }),
      traceability_source_url: Type.String({ format: 'uri' }),
    },
    { additionalProperties: false, title: spec.wording.recordTitle },
  );
}

/** One money figure as the API answers it (design §1.6): exactly these ten fields. */
export interface MoneyRecord<M extends string = string> {
  year_of_disclosure: number;
  reporting_period: number;
  metric: M;
  value: number;
  ccy: 'USD';
  original_value: number | null;
  original_ccy: string;
  company_id: string;
  document_id: string;
  traceability_source_url: string;
}
