import type { Kysely } from 'kysely';
import { disclosureOrder } from '../../../db/disclosure.js';
import type { Database, DocumentStatus, FigureTableName } from '../../../db/schema.js';
import type { FigureSpec } from '../../../ingest/core/figure-spec.js';
import { parsePairs } from '../../../ingest/filings/ingest-filings.js';
import { parseTraceFields, type SourceTraceField } from '../../../ingest/filings/source.js';
import { perShareNumber } from '../../../money/per-share.js';
import { readCandidates, type TraceCandidate } from './figure-guard.js';
import { figureTableAsP } from './figure-table.js';

/** What a traceability page shows to anyone: where a data point comes from, not its value. */
export interface TraceFacts {
  pointId: string;
  companyId: string;
  companyName: string;
  country: string | null;
  lei: string | null;
  listings: Array<{ ticker: string; micCode: string; isin: string | null; primary: boolean }>;
  period: number;
  originalCcy: string;
  document: TraceDocument;
  /** How a filed figure was read from its SEC filing (design §10.9); null for a bundle figure. */
  filing: TraceFiling | null;
  /** Every data point of the company-period that the API serves (processed documents), in the API's order. */
  related: Array<{ pointId: string; document: TraceDocument }>;
}

export interface TraceDocument {
  documentId: string;
  title: string;
  sourceUrl: string;
  /** '' when the source gives no publication date (an ESEF report no index lists). */
  publishedOn: string;
  status: DocumentStatus;
  /** The period the document reports on: an undated one's year of disclosure follows it. */
  reportingPeriod: number;
}

/** A filed figure's provenance: public, like every fact of the page but the value. */
export interface TraceFiling {
  concept: string;
  form: string | null;
  accession: string | null;
  /** The filing's main document (SEC submissions), when recorded. */
  mainDocumentUrl: string | null;
  filed: string;
  /** Null when the source gave only the duration (a data set's four quarters). */
  periodStart: string | null;
  periodEnd: string;
  /**
   * The other concepts of the figure the filing tagged for the period, in order of preference (design
   * §10.3), so a reader sees why this one was chosen. Their values are figures: shown only to a buyer.
   */
  candidates: TraceCandidate[];
  /**
   * The filing's own lines the candidates were held against (design §18.4: cost of revenue,
   * operating income), where the statements' arithmetic passed one over; values as candidates'.
   */
  bounds: Array<{ concept: string; value: number }>;
  /** Later filings that repeated the figure rounded to their precision (design §10.6). */
  confirmedBy: Array<{ document: TraceDocument; value: number }>;
  /** The document's source (`sec`, `esef`, `bundle`…; design §15). */
  source: string | null;
  /** What the figure's source shows of the fact beyond these fields, in its words (ESEF: LEI, fxo_id, fact id, …). */
  sourceFields: SourceTraceField[];
}

/** The paid part of a data point: only read for an account that bought its company-period. */
export interface TraceValues {
  valueUsd: number;
  originalValue: number | null;
  originalCcy: string;
  fxRate: string;
  fxSource: string;
}

const ID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The public facts of a data point of the figure table `table`, or undefined for an id not there. */
export async function loadTraceFacts(
  db: Kysely<Database>,
  table: FigureTableName,
  pointId: string,
  figures?: FigureSpec,
): Promise<TraceFacts | undefined> {
  if (!ID_RE.test(pointId)) return undefined;
  // A per-share figure's candidates and confirmations are stored in millionths, shown as decimals.
  const shown = (stored: number): number => (figures?.perShare === true ? perShareNumber(stored) : stored);
  const point = await db
    .selectFrom(figureTableAsP(table))
    .innerJoin('companies as c', 'c.company_id', 'p.company_id')
    .innerJoin('documents as d', 'd.document_id', 'p.document_id')
    .select(['p.point_id', 'p.company_id', 'p.reporting_period', 'p.original_ccy', 'c.name', 'c.country', 'c.lei'])
    .select(['p.concept', 'p.period_start', 'p.period_end', 'p.candidates', 'p.confirmed_by', 'p.source_detail'])
    .select(['d.document_id', 'd.title', 'd.source_url', 'd.published_on', 'd.status', 'd.form', 'd.accession'])
    .select(['d.main_document_url', 'd.source', 'd.reporting_period as document_period'])
    .where('p.point_id', '=', pointId)
    .executeTakeFirst();
  if (point === undefined) return undefined;
  const confirmations = parsePairs(point.confirmed_by);
  const [listings, related, confirming] = await Promise.all([
    db
      .selectFrom('listings')
      .select(['ticker', 'mic_code', 'isin', 'is_primary'])
      .where('company_id', '=', point.company_id)
      .orderBy('is_primary', 'desc')
      .orderBy('added_seq')
      .execute(),
    db
      .selectFrom(figureTableAsP(table))
      .innerJoin('documents as d', 'd.document_id', 'p.document_id')
      .select(['p.point_id', 'd.document_id', 'd.title', 'd.source_url', 'd.published_on', 'd.status'])
      .select('d.reporting_period as document_period')
      .where('p.company_id', '=', point.company_id)
      .where('p.reporting_period', '=', point.reporting_period)
      .where('d.status', '=', 'processed')
      .execute(),
    confirmations.length === 0
      ? Promise.resolve([])
      : db
          .selectFrom('documents as d')
          .select(['d.document_id', 'd.title', 'd.source_url', 'd.published_on', 'd.status'])
          .select('d.reporting_period as document_period')
          .where(
            'd.document_id',
            'in',
            confirmations.map((c) => c.key),
          )
          .execute(),
  ]);
  const documentOf = (r: {
    document_id: string;
    title: string;
    source_url: string;
    published_on: string;
    status: DocumentStatus;
    document_period: number;
  }): TraceDocument => ({
    documentId: r.document_id,
    title: r.title,
    sourceUrl: r.source_url,
    publishedOn: r.published_on,
    status: r.status,
    reportingPeriod: Number(r.document_period),
  });
  // In order of disclosure (an undated document at the start of its year of disclosure), then by id.
  const orderOf = (d: TraceDocument) => `${disclosureOrder(d.publishedOn, d.reportingPeriod)}|${d.documentId}`;
  const relatedDocuments = related
    .map((r) => ({ pointId: r.point_id, document: documentOf(r) }))
    .sort((a, b) => (orderOf(a.document) < orderOf(b.document) ? -1 : orderOf(a.document) > orderOf(b.document) ? 1 : 0));
  return {
    pointId: point.point_id,
    companyId: point.company_id,
    companyName: point.name,
    country: point.country,
    lei: point.lei,
    listings: listings.map((l) => ({ ticker: l.ticker, micCode: l.mic_code, isin: l.isin, primary: Number(l.is_primary) === 1 })),
    period: point.reporting_period,
    originalCcy: point.original_ccy,
    document: documentOf(point),
    filing:
      point.concept === null || point.period_end === null
        ? null
        : {
            concept: point.concept,
            form: point.form,
            accession: point.accession,
            mainDocumentUrl: point.main_document_url,
            filed: point.published_on,
            periodStart: point.period_start,
            periodEnd: point.period_end,
            ...readCandidates(
              figures,
              point.concept,
              parsePairs(point.candidates).map((c) => ({ concept: c.key, value: shown(c.value) })),
            ),
            confirmedBy: confirmations.flatMap((c) => {
              const d = confirming.find((r) => r.document_id === c.key);
              return d === undefined ? [] : [{ document: documentOf(d), value: shown(c.value) }];
            }),
            source: point.source,
            sourceFields: parseTraceFields(point.source_detail),
          },
    related: relatedDocuments,
  };
}

/** The values of the company-period's data points, by point id. Call only for an account that bought it. */
export async function loadTraceValues(
  db: Kysely<Database>,
  table: FigureTableName,
  companyId: string,
  period: number,
  perShare = false,
): Promise<Map<string, TraceValues>> {
  const shown = (stored: number): number => (perShare ? perShareNumber(stored) : stored);
  const rows = await db
    .selectFrom(table)
    .select(['point_id', 'value_usd', 'original_value', 'original_ccy', 'fx_rate', 'fx_source'])
    .where('company_id', '=', companyId)
    .where('reporting_period', '=', period)
    .execute();
  return new Map(
    rows.map((r) => [
      r.point_id,
      {
        valueUsd: shown(Number(r.value_usd)),
        originalValue: r.original_value === null ? null : shown(Number(r.original_value)),
        originalCcy: r.original_ccy,
        fxRate: r.fx_rate,
        fxSource: r.fx_source,
      },
    ]),
  );
}
