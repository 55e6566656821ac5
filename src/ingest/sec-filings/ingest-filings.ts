import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { isCurrency } from '../../revenues/currencies.js';
import { rateCurrency, toUsd } from '../../revenues/normalize.js';
import { ImportError } from '../core/issues.js';
import { pointId, type Rates, rateKey } from '../core/rates.js';
import { type StageDb, StageWriter } from '../core/stage.js';
import { stagedWrite } from '../core/staged-write.js';
import {
  type Candidate,
  type FiledFact,
  type SkipReason,
  type StoredFigure,
  selectFiguresAndConfirmations,
} from './filed-figures.js';
import { filingDocumentId, filingIndexUrl, isAnnualForm, isAnnualPeriod, reportingPeriodOf } from './rules.js';

/** Every revenue fact of one filer that a source holds, with the file it came from. */
export interface Filer {
  cik: string;
  name: string;
  facts: FiledFact[];
  /** The file (or zip entry) read, for messages. */
  source: string;
}

/** What an ingest printed: counts of what it read, matched and added, and of facts left out, by reason. */
export interface FilingsSummary {
  filers: number;
  companies_matched: number;
  companies_added: number;
  /** Revenue facts read (facts of other concepts are not counted). */
  facts: number;
  documents: number;
  data_points: number;
  /** Of data_points, those that restate a figure an earlier filing gave. */
  restatements: number;
  skipped: Partial<Record<SkipReason, number>>;
  renormalized: number;
}

export interface IngestOptions {
  /** Called after each filer is read: how many so far. */
  onProgress?: (filers: number) => void;
}

/**
 * Turns the filers a source reads into documents and data points (DESIGN §10) through the one
 * staged write every import shares: all of the input is read and checked before anything is
 * written, a malformed file refuses the whole (the reader throws {@link ImportError}), and the
 * same input twice changes nothing. A filer is matched to a company by CIK; one the catalog does
 * not hold is skipped and counted. A non-USD figure whose currency-year has no FX rate is skipped
 * and counted as `no_fx_rate` (never stored without its USD value): add the rate and ingest again.
 */
export async function ingestFilings(
  db: Kysely<Database>,
  label: string,
  filers: AsyncIterable<Filer>,
  options: IngestOptions = {},
): Promise<FilingsSummary> {
  return stagedWrite(db, label, (stage, rates, conn) => stageFilers(stage, conn, rates, filers, options), {
    rerun: 'ingest it again',
  });
}

async function stageFilers(
  stage: StageDb,
  conn: Kysely<Database>,
  rates: Rates,
  filers: AsyncIterable<Filer>,
  options: IngestOptions,
): Promise<{ issues: []; result: Omit<FilingsSummary, 'renormalized'> }> {
  const summary: Omit<FilingsSummary, 'renormalized'> = {
    filers: 0,
    companies_matched: 0,
    companies_added: 0,
    facts: 0,
    documents: 0,
    data_points: 0,
    restatements: 0,
    skipped: {},
  };
  const skip = (reason: SkipReason, n = 1) => {
    summary.skipped[reason] = (summary.skipped[reason] ?? 0) + n;
  };
  const companies = new Map(
    (await conn.selectFrom('companies').select(['company_id', 'cik']).where('cik', 'is not', null).execute()).map((c) => [
      c.cik as string,
      c.company_id,
    ]),
  );
  const anyFiled =
    (await conn.selectFrom('revenue_points').select('point_id').where('period_end', 'is not', null).limit(1).execute()).length >
    0;
  const documents = new StageWriter(stage, 'stage_documents');
  const points = new StageWriter(stage, 'stage_revenues');
  const seen = new Set<string>();
  let line = 0;

  for await (const filer of filers) {
    summary.filers++;
    summary.facts += filer.facts.length;
    options.onProgress?.(summary.filers);
    const companyId = companies.get(filer.cik);
    if (companyId === undefined) {
      skip('unknown_filer', filer.facts.length);
      continue;
    }
    if (seen.has(filer.cik)) {
      skip('repeated_filer', filer.facts.length);
      continue;
    }
    seen.add(filer.cik);
    summary.companies_matched++;
    const stored = anyFiled ? await storedFigures(conn, companyId) : [];
    const { figures, confirmations } = selectFiguresAndConfirmations(filer.facts, stored, isCurrency, skip);
    const periodOfFiling = filingPeriods(filer.facts);
    // Filings already held, figures or not (a filing that only confirms a figure has none).
    const storedFilings = new Set(
      anyFiled
        ? (
            await conn
              .selectFrom('documents')
              .select('accession')
              .where('company_id', '=', companyId)
              .where('accession', 'is not', null)
              .execute()
          ).map((d) => d.accession as string)
        : [],
    );
    const staged = new Set<string>();
    const stageDocument = async (fact: FiledFact, reportingPeriod: number) => {
      if (staged.has(fact.accession)) return;
      staged.add(fact.accession);
      if (!storedFilings.has(fact.accession)) summary.documents++;
      const title = `${filer.name}: ${fact.form} filed ${fact.filed} (accession ${fact.accession})`.slice(0, 500);
      await documents.add([
        filingDocumentId(fact.accession),
        companyId,
        title,
        filingIndexUrl(filer.cik, fact.accession),
        fact.filed,
        periodOfFiling.get(fact.accession) ?? reportingPeriod,
        'processed',
        fact.form,
        fact.accession,
        'financial',
        null,
        ++line,
      ]);
    };
    // Later filings repeating a kept figure rounded: named on the kept figure, their documents kept.
    const confirmedBy = new Map<string, string[]>();
    for (const c of confirmations) {
      const key = `${c.accession}|${c.end}`;
      confirmedBy.set(key, [...(confirmedBy.get(key) ?? []), `${filingDocumentId(c.by.accession)}=${c.by.value}`]);
      await stageDocument(c.by, reportingPeriodOf(c.by.end));
    }
    for (const { fact, reportingPeriod, restatement, candidates } of figures) {
      const basis = rateCurrency(fact.unit).currency;
      const rate = fact.unit === 'USD' ? undefined : rates.get(rateKey(basis, reportingPeriod));
      if (fact.unit !== 'USD' && rate === undefined) {
        skip('no_fx_rate');
        continue;
      }
      let valueUsd: number;
      try {
        valueUsd = rate === undefined ? fact.value : toUsd(fact.value, fact.unit, rate.usdPerUnit);
      } catch (error) {
        throw new ImportError([{ file: filer.source, line: 0, message: `${describe(fact)}: ${(error as Error).message}` }]);
      }
      const documentId = filingDocumentId(fact.accession);
      await stageDocument(fact, reportingPeriod);
      summary.data_points++;
      if (restatement) summary.restatements++;
      const key = `${fact.accession}|${fact.end}`;
      await points.add([
        pointId(documentId, reportingPeriod),
        companyId,
        documentId,
        reportingPeriod,
        fact.value,
        fact.unit,
        valueUsd,
        basis,
        fact.concept,
        fact.start,
        fact.end,
        candidatesText(candidates),
        confirmedBy.get(key)?.join(' ') ?? null,
        ++line,
      ]);
      confirmedBy.delete(key);
    }
    // What is left confirms a figure an earlier run stored: it is staged again, now naming them.
    for (const s of stored) {
      const more = confirmedBy.get(`${s.accession}|${s.end}`);
      if (more === undefined) continue;
      const all = [...new Set([...(s.confirmedBy?.split(' ') ?? []), ...more])].join(' ');
      await points.add([
        s.pointId,
        companyId,
        s.documentId,
        s.reportingPeriod,
        s.value,
        s.currency,
        s.valueUsd,
        rateCurrency(s.currency).currency,
        s.concept,
        s.start,
        s.end,
        s.candidates,
        all,
        ++line,
      ]);
    }
  }
  await documents.flush();
  await points.flush();
  return { issues: [], result: summary };
}

/** The period each filing reports on: the latest fiscal year among its annual facts. */
function filingPeriods(facts: readonly FiledFact[]): Map<string, number> {
  const periods = new Map<string, number>();
  for (const f of facts) {
    if (!isAnnualForm(f.form) || (f.start !== null && !isAnnualPeriod(f.start, f.end))) continue;
    const p = reportingPeriodOf(f.end);
    if ((periods.get(f.accession) ?? 0) < p) periods.set(f.accession, p);
  }
  return periods;
}

/** A stored filed figure, with all it takes to stage it again when a later filing confirms it. */
interface StoredPoint extends StoredFigure {
  pointId: string;
  documentId: string;
  reportingPeriod: number;
  valueUsd: number;
  concept: string | null;
  start: string | null;
  candidates: string | null;
  confirmedBy: string | null;
}

async function storedFigures(db: Kysely<Database>, companyId: string): Promise<StoredPoint[]> {
  const rows = await db
    .selectFrom('revenue_points as p')
    .innerJoin('documents as d', 'd.document_id', 'p.document_id')
    .select(['d.accession', 'd.published_on', 'p.period_end', 'p.original_value', 'p.original_ccy'])
    .select(['p.point_id', 'p.document_id', 'p.reporting_period', 'p.value_usd', 'p.concept', 'p.period_start'])
    .select(['p.candidates', 'p.confirmed_by'])
    .where('p.company_id', '=', companyId)
    .where('p.period_end', 'is not', null)
    .where('d.accession', 'is not', null)
    .execute();
  return rows.map((r) => ({
    accession: r.accession as string,
    filed: r.published_on,
    end: r.period_end as string,
    value: Number(r.original_value),
    currency: r.original_ccy,
    pointId: r.point_id,
    documentId: r.document_id,
    reportingPeriod: r.reporting_period,
    valueUsd: Number(r.value_usd),
    concept: r.concept,
    start: r.period_start,
    candidates: r.candidates,
    confirmedBy: r.confirmed_by,
  }));
}

/** Candidates as stored: `concept=value` pairs separated by spaces; null when there are none. */
export function candidatesText(candidates: readonly Candidate[]): string | null {
  return candidates.length === 0 ? null : candidates.map((c) => `${c.concept}=${c.value}`).join(' ');
}

/** A fact as the operator can find it in the source. */
export function describe(fact: Pick<FiledFact, 'concept' | 'accession' | 'end'>): string {
  return `${fact.concept} of accession ${fact.accession} ending ${fact.end}`;
}
