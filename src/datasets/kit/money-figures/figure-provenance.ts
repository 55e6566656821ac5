import { type TSchema, Type } from '@sinclair/typebox';
import { CURRENCIES } from '../../../money/currencies.js';
import { documentProvenance, documentProvenanceSchema, PublishedOnSchema } from '../document-provenance.js';
import type { TraceFacts, TraceValues } from './figure-facts.js';
import type { MoneyFigureSpec } from './money-figure-spec.js';

const Currency = Type.Unsafe<(typeof CURRENCIES)[number]>(Type.String({ enum: [...CURRENCIES] }));

/**
 * What a figure's source says of it beyond the shared fields (design §14.7, §15), as its trace page
 * shows it: ESEF's LEI, fxo_id, fact id, unit, decimals and the report, viewer and xBRL-JSON links.
 * Public, like the page: none of it is the figure's value.
 */
const SourceSchema = Type.Object(
  {
    name: Type.String({ description: 'The source the figure was read from (`esef`).' }),
    fields: Type.Array(
      Type.Object(
        {
          label: Type.String({
            description: 'The field as the source names it: LEI, fxo_id, Fact id, Unit, Decimals, Report, Viewer, xBRL-JSON.',
          }),
          value: Type.String({ description: 'The field’s value as the trace page shows it.' }),
          kind: Type.Union([Type.Literal('text'), Type.Literal('code'), Type.Literal('link')], {
            description: '`code` for an identifier, `link` for an http(s) URL, `text` otherwise.',
          }),
        },
        { additionalProperties: false },
      ),
      { description: 'Each field as a label, its value (text) and how to show it.' },
    ),
  },
  {
    additionalProperties: false,
    description:
      "The source's own fields of the figure, in the order its trace page shows them; absent when the source has none (SEC).",
  },
);

/**
 * A figure's provenance as JSON (design §11.3): where it comes from, for anyone; what it is
 * worth, only for an account that bought its company-period (`values` is null otherwise).
 */
export function figureProvenanceSchema(spec: MoneyFigureSpec): TSchema {
  // A per-share figure is a decimal (design §18.2); every other a whole amount.
  const figure = spec.perShare === true ? Type.Number : Type.Integer;
  return Type.Object(
    {
      data_point_id: Type.String({ format: 'uuid' }),
      company_id: Type.String({ format: 'uuid' }),
      company_name: Type.String(),
      metric: Type.Literal(spec.metric),
      concept: Type.Union([Type.String(), Type.Null()], {
        description: "The source's own name for the figure (e.g. an XBRL concept) where the import recorded one; null otherwise.",
      }),
      reporting_period: Type.Integer(),
      period: Type.Union(
        [
          Type.Object(
            {
              start: Type.Union([Type.String({ format: 'date' }), Type.Null()], {
                description:
                  'First day of the period; null when the source gave only its length, or for a balance at a date (an instant).',
              }),
              end: Type.String({ format: 'date' }),
            },
            { additionalProperties: false },
          ),
          Type.Null(),
        ],
        { description: 'The period the figure covers, where the source dated it (a filed figure); null otherwise.' },
      ),
      filing: Type.Union(
        [
          Type.Object(
            {
              form: Type.Union([Type.String(), Type.Null()], { description: 'The SEC form, e.g. 10-K.' }),
              accession: Type.Union([Type.String(), Type.Null()], { description: 'The SEC accession number.' }),
              filed_on: Type.Union([Type.String({ format: 'date' }), Type.Null()], {
                description: 'When the filing was published; null when its source gives no date (an ESEF report no index lists).',
              }),
              main_document_url: Type.Union([Type.String({ format: 'uri' }), Type.Null()], {
                description: "The filing's main document (its primary HTML, from SEC submissions); null when not recorded.",
              }),
              source: Type.Optional(SourceSchema),
            },
            { additionalProperties: false },
          ),
          Type.Null(),
        ],
        { description: 'The filing a figure was read from (SEC ingestion); null for an imported figure.' },
      ),
      candidates: Type.Array(
        Type.Object(
          {
            concept: Type.String({ description: `Another ${spec.wording.concept} the filing tagged for the period.` }),
            value: Type.Union([figure(), Type.Null()], { description: 'As filed; null unless values_included.' }),
            passed_over: Type.Union([Type.String(), Type.Null()], {
              description:
                "Why the statements' arithmetic passed this candidate over although it comes first in the order (zero, or under the filing's cost of revenue or operating income, beside a larger candidate); null when it comes later in the order.",
            }),
          },
          { additionalProperties: false },
        ),
        {
          description: `The other ${spec.wording.concept}s the same filing tagged for the same period, in order of preference: why \`concept\` was chosen. Empty for an imported figure.`,
        },
      ),
      bounds: Type.Array(
        Type.Object(
          {
            concept: Type.String({
              description: "A line of the filing's statements for the same period (cost of revenue, operating income).",
            }),
            value: Type.Union([figure(), Type.Null()], { description: 'As filed; null unless values_included.' }),
          },
          { additionalProperties: false },
        ),
        {
          description:
            "The filing's own lines a passed-over candidate was held against; empty unless the statements' arithmetic passed one over.",
        },
      ),
      confirmed_by: Type.Array(
        Type.Object(
          {
            document_id: Type.String({ format: 'uuid' }),
            title: Type.String(),
            source_url: Type.String(),
            published_on: PublishedOnSchema,
            value: Type.Union([figure(), Type.Null()], { description: 'As filed there; null unless values_included.' }),
          },
          { additionalProperties: false },
        ),
        {
          description:
            'Later filings that repeat the figure rounded to their own precision: the same figure, confirmed, not a restatement.',
        },
      ),
      document: documentProvenanceSchema({ sourceUrl: 'Where the source document is published.' }),
      original_ccy: Currency,
      values_included: Type.Boolean({ description: 'True when the caller’s account bought this company-period.' }),
      values: Type.Union(
        [
          Type.Object(
            {
              value: figure({ description: spec.wording.value }),
              ccy: Type.Literal('USD'),
              original_value: Type.Union([figure(), Type.Null()], { description: 'As reported, in original_ccy.' }),
              original_ccy: Currency,
              fx_rate: Type.String({ description: 'USD per unit of original_ccy, an exact decimal; "1" for USD.' }),
              fx_source: Type.String({ description: 'Where the FX rate comes from.' }),
            },
            { additionalProperties: false },
          ),
          Type.Null(),
        ],
        { description: 'The figures; null unless the caller’s account bought this company-period.' },
      ),
      traceability_source_url: Type.String({ format: 'uri', description: 'The human-readable page of this data point.' }),
    },
    { additionalProperties: false, title: spec.wording.provenanceTitle },
  );
}

/** The provenance answer of a figure: values only when given (an account that bought it). */
export function provenanceOf(
  spec: MoneyFigureSpec,
  facts: TraceFacts,
  values: TraceValues | undefined,
  publicUrl: string,
): Record<string, unknown> {
  const d = facts.document;
  return {
    data_point_id: facts.pointId,
    company_id: facts.companyId,
    company_name: facts.companyName,
    metric: spec.metric,
    concept: facts.filing?.concept ?? null,
    reporting_period: facts.period,
    period: facts.filing === null ? null : { start: facts.filing.periodStart, end: facts.filing.periodEnd },
    filing:
      facts.filing === null
        ? null
        : {
            form: facts.filing.form,
            accession: facts.filing.accession,
            filed_on: facts.filing.filed === '' ? null : facts.filing.filed,
            main_document_url: facts.filing.mainDocumentUrl,
            ...(facts.filing.sourceFields.length === 0
              ? {}
              : {
                  source: {
                    name: facts.filing.source ?? 'unknown',
                    fields: facts.filing.sourceFields.map((f) => ({ label: f.label, value: f.value, kind: f.kind ?? 'text' })),
                  },
                }),
          },
    candidates: (facts.filing?.candidates ?? []).map((c) => ({
      concept: c.concept,
      value: values === undefined ? null : c.value,
      passed_over: c.passedOver,
    })),
    bounds: (facts.filing?.bounds ?? []).map((b) => ({ concept: b.concept, value: values === undefined ? null : b.value })),
    confirmed_by: (facts.filing?.confirmedBy ?? []).map((c) => ({
      document_id: c.document.documentId,
      title: c.document.title,
      source_url: c.document.sourceUrl,
      published_on: c.document.publishedOn === '' ? null : c.document.publishedOn,
      value: values === undefined ? null : c.value,
    })),
    document: documentProvenance(d),
    original_ccy: facts.originalCcy,
    values_included: values !== undefined,
    values:
      values === undefined
        ? null
        : {
            value: values.valueUsd,
            ccy: 'USD',
            original_value: values.originalValue,
            original_ccy: values.originalCcy,
            fx_rate: values.fxRate,
            fx_source: values.fxSource,
          },
    traceability_source_url: `${publicUrl}/trace/${facts.pointId}`,
  };
}
