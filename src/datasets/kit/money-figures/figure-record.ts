import { type TSchema, Type } from '@sinclair/typebox';
import { CURRENCIES } from '../../../money/currencies.js';
import { perShareNumber } from '../../../money/per-share.js';
import type { MoneyFigureSpec } from './money-figure-spec.js';

const YEAR_OF_DISCLOSURE = Type.Integer({
  description:
    'Year the source document was published; when its source gives no publication date (an ESEF report no index lists), the year after the latest period the document covers.',
});

/** The schema of one record (design §1.6, §18.2): the OpenAPI document and the serializer both come from it. */
export function moneyRecordSchema(spec: MoneyFigureSpec): TSchema {
  if (spec.perShare === true) {
    // Per share (design §18.2): `unit` and `original_unit` in place of the currencies, decimal values.
    return recordSchema(spec, {
      value: Type.Number({ description: spec.wording.value }),
      unit: Type.Literal('USD/share'),
      original_value: Type.Union([Type.Number(), Type.Null()], { description: spec.wording.originalValue }),
      original_unit: Type.String({
        pattern: '^[A-Z]{3}/share$',
        description: 'The currency per share as reported (`EUR/share`).',
      }),
    });
  }
  return recordSchema(spec, {
    value: Type.Integer({ description: spec.wording.value }),
    ccy: Type.Literal('USD'),
    original_value: Type.Union([Type.Integer(), Type.Null()], { description: spec.wording.originalValue }),
    original_ccy: Type.Optional(
      Type.Unsafe<(typeof CURRENCIES)[number]>(Type.String({ enum: [...CURRENCIES], description: 'ISO 4217 code as reported.' })),
    ),
  });
}

/** A record's fields in the API's order, its value and unit fields (`values`) in the middle. */
function recordSchema(spec: MoneyFigureSpec, values: Record<string, TSchema>): TSchema {
  return Type.Object(
    {
      year_of_disclosure: YEAR_OF_DISCLOSURE,
      reporting_period: Type.Integer(),
      metric: Type.Literal(spec.metric),
      ...values,
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

/** One per-share figure as the API answers it (design §18.2): a decimal `value` in USD per share. */
export interface PerShareRecord<M extends string = string> {
  year_of_disclosure: number;
  reporting_period: number;
  metric: M;
  value: number;
  unit: 'USD/share';
  original_value: number | null;
  /** `EUR/share`: the reported currency per share. */
  original_unit: string;
  company_id: string;
  document_id: string;
  traceability_source_url: string;
}

/** A record of a kit dataset: a money figure, or a per-share one. */
export type FigureRecord<M extends string = string> = MoneyRecord<M> | PerShareRecord<M>;

/**
 * A record from a stored figure: a money one as stored, a per-share one from millionths to its
 * decimal and currency per share.
 */
export function figureRecord<M extends string>(
  spec: Pick<MoneyFigureSpec, 'perShare'> & { metric: M },
  stored: { valueUsd: number; originalValue: number | null; originalCcy: string },
  common: Pick<
    MoneyRecord<M>,
    'year_of_disclosure' | 'reporting_period' | 'company_id' | 'document_id' | 'traceability_source_url'
  >,
): FigureRecord<M> {
  if (spec.perShare === true) {
    return {
      year_of_disclosure: common.year_of_disclosure,
      reporting_period: common.reporting_period,
      metric: spec.metric,
      value: perShareNumber(stored.valueUsd),
      unit: 'USD/share',
      original_value: stored.originalValue === null ? null : perShareNumber(stored.originalValue),
      original_unit: `${stored.originalCcy}/share`,
      company_id: common.company_id,
      document_id: common.document_id,
      traceability_source_url: common.traceability_source_url,
    };
  }
  return {
    year_of_disclosure: common.year_of_disclosure,
    reporting_period: common.reporting_period,
    metric: spec.metric,
    value: stored.valueUsd,
    ccy: 'USD',
    original_value: stored.originalValue,
    original_ccy: stored.originalCcy,
    company_id: common.company_id,
    document_id: common.document_id,
    traceability_source_url: common.traceability_source_url,
  };
}
