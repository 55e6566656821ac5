import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { isCurrency } from '../../money/currencies.js';
import { rateCurrency, toUsd } from '../../money/normalize.js';
import { PER_SHARE_USD_STEP, perShareCurrency, perShareUnit } from '../../money/per-share.js';
import { companionConceptsOf, conceptRank, conceptsOf, type FigureSpec, guardConceptsOf } from '../core/figure-spec.js';
import { ImportError } from '../core/issues.js';
import { type Rates, rateKey } from '../core/rates.js';
import { readAhead } from '../core/read-ahead.js';
import { type StageDb, StageWriter } from '../core/stage.js';
import { stagedWrite } from '../core/staged-write.js';
import {
  anyFiledFigure,
  type FilingsStage,
  figureStage,
  leiStage,
  type StoredFigureRow,
  storedFigureRows,
} from './filings-stage.js';
import { CompanyMatcher, type Match, type NewCompany, newCompanyOf } from './match-company.js';
import { isAnnualPeriod, reportingPeriodOf } from './periods.js';
import {
  type Candidate,
  fiscalYearEnds,
  type SkipReason,
  type StoredFigure,
  selectFiguresAndConfirmations,
  selectionRules,
} from './select-figures.js';
import { type FiledFact, type Filer, type FilingSource, traceFieldsText } from './source.js';

/** What one figure spec got from an ingest. */
export interface FigureCounts {
  /** Facts of the spec's concepts read. */
  facts: number;
  data_points: number;
  /** Of data_points, those that restate a figure an earlier filing gave. */
  restatements: number;
  skipped: Partial<Record<SkipReason, number>>;
}

/**
 * What an ingest printed: counts of what it read, matched and added, and of facts left out, by
 * reason — summed over the figure specs, and per spec under `datasets` (keyed by spec name).
 */
export interface FilingsSummary {
  filers: number;
  companies_matched: number;
  companies_added: number;
  /** Facts read of any spec's concepts (facts of other concepts are not counted). */
  facts: number;
  documents: number;
  data_points: number;
  restatements: number;
  skipped: Partial<Record<SkipReason, number>>;
  datasets: Record<string, FigureCounts>;
  renormalized: number;
}

/** Nothing counted yet, with a zero entry for each of `specs`' datasets: where an ingest's counts start. */
function zeroCounts(specs: readonly FigureSpec[]): Omit<FilingsSummary, 'renormalized'> {
  return {
    filers: 0,
    companies_matched: 0,
    companies_added: 0,
    facts: 0,
    documents: 0,
    data_points: 0,
    restatements: 0,
    skipped: {},
    datasets: Object.fromEntries(specs.map((s) => [s.name, { facts: 0, data_points: 0, restatements: 0, skipped: {} }])),
  };
}

/** A summary of nothing ingested: what a sync's counts start from before it adds each ingest's. */
export function zeroFilingsSummary(): FilingsSummary {
  return { ...zeroCounts([]), renormalized: 0 };
}

export interface IngestOptions {
  /** Called after each filer is read: how many so far; then once more, `done`, with the summary's count. */
  onProgress?: (filers: number, done?: boolean) => void;
}

/**
 * Turns the filers a source reads into documents and data points (design §10, §14, §15) for every
 * figure spec, through the one staged write every import shares: all of the input is read and
 * checked before anything is written, a malformed file refuses the whole (the reader throws
 * {@link ImportError}), and the same input twice changes nothing. A filer is matched to a company
 * by CIK, LEI, or name and country, else to the company its filings are already stored under (a
 * successor's); one the catalog does not hold becomes a company from its own identity when it
 * gives a figure (design §19.1: `companies_added`); one whose name and country fit several
 * companies is skipped and counted (`ambiguous_filer`), as is one with neither CIK nor LEI. A
 * non-USD figure whose currency-year has no FX rate is skipped and counted as `no_fx_rate` (never
 * stored without its USD value): add the rate and ingest again.
 */
export async function ingestFilings(
  db: Kysely<Database>,
  label: string,
  source: FilingSource,
  specs: readonly FigureSpec[],
  filers: AsyncIterable<Filer>,
  options: IngestOptions = {},
): Promise<FilingsSummary> {
  const figureStages = specs.map(figureStage);
  const leis = leiStage();
  return stagedWrite(
    db,
    label,
    (stage, rates, conn) => stageFilers({ stage, conn, rates, source, specs, figureStages, leis }, filers, options),
    { rerun: 'ingest it again', extraStages: [leis, ...figureStages] },
  );
}

interface Run {
  stage: StageDb;
  conn: Kysely<Database>;
  rates: Rates;
  source: FilingSource;
  specs: readonly FigureSpec[];
  figureStages: readonly FilingsStage[];
  leis: FilingsStage;
}

const writerOf = (run: Run, s: FilingsStage) => new StageWriter(run.conn, s.stageTable, s.columns);

async function stageFilers(
  run: Run,
  filers: AsyncIterable<Filer>,
  options: IngestOptions,
): Promise<{ issues: []; result: Omit<FilingsSummary, 'renormalized'> }> {
  const { conn, source, specs } = run;
  const summary = zeroCounts(specs);
  const skipper =
    (counts: FigureCounts) =>
    (reason: SkipReason, n = 1) => {
      // A filer without facts (an ESEF report of undated or no figures) is nothing skipped.
      if (n === 0) return;
      summary.skipped[reason] = (summary.skipped[reason] ?? 0) + n;
      counts.skipped[reason] = (counts.skipped[reason] ?? 0) + n;
    };
  const ranks = specs.map(conceptRank);
  const readers = readersOf(specs);
  const anyYearEnd = specs.some((s) => s.period === 'year end');
  const countsOf = specs.map((s) => summary.datasets[s.name] as FigureCounts);
  const anyFiled = await Promise.all(specs.map((s) => anyFiledFigure(conn, s)));
  // Whether a filer's stored documents must be looked up: not on a first ingest into a database
  // holding none of this source (a bulk ingest of thousands of filers), else always.
  const anyStored =
    anyFiled.some((a) => a) ||
    (await conn.selectFrom('documents').select('document_id').where('source', '=', source.name).limit(1).execute()).length > 0;
  const matcher = new CompanyMatcher(conn);
  const documents = new StageWriter(run.stage, 'stage_documents');
  const companies = new StageWriter(run.stage, 'stage_companies');
  const leis = writerOf(run, run.leis);
  const points = run.figureStages.map((s) => writerOf(run, s));
  const seen = new Set<string>();
  let line = 0;

  // The next filer is read while this one waits on the database (its look-ups, its staged rows): on
  // PostgreSQL the two overlap.
  for await (const filer of readAhead(filers)) {
    summary.filers++;
    summary.facts += filer.facts.length;
    // A fact belongs to every spec that reads its concept (none reads another's, in practice); a
    // spec's guard facts are read beside its own (design §18.4), never counted as its facts.
    const specFacts = factsBySpec(filer.facts, specs.length, readers);
    const factCounts = ranks.map((rank, i) =>
      (specFacts[i] as FiledFact[]).reduce((n, f) => (rank(f.concept) === undefined ? n : n + 1), 0),
    );
    factCounts.forEach((n, i) => {
      (countsOf[i] as FigureCounts).facts += n;
    });
    options.onProgress?.(summary.filers);
    const found = await matcher.match(filer);
    const skipAll = (reason: SkipReason) => {
      for (const [i, n] of factCounts.entries()) skipper(countsOf[i] as FigureCounts)(reason, n);
    };
    if (found === 'ambiguous') {
      skipAll('ambiguous_filer');
      continue;
    }
    let match: Match | undefined = found;
    let added: NewCompany | undefined;
    if (match === undefined) {
      // A filer whose filings are stored under a company already is that company: a predecessor's
      // CIK whose filings a successor holds (design §19.4), as the demo's reviewed list places them.
      const holder = anyStored ? await holderOf(conn, source.name, filer.facts) : undefined;
      if (holder !== undefined) match = { companyId: holder };
      else {
        added = newCompanyOf(filer);
        if (added === undefined) {
          skipAll('unknown_filer');
          continue;
        }
        match = { companyId: added.companyId };
      }
    }
    const { companyId } = match;
    if (seen.has(companyId)) {
      skipAll('repeated_filer');
      continue;
    }
    seen.add(companyId);
    if (added === undefined) summary.companies_matched++;
    if (match.recordLei !== undefined) await leis.add([companyId, match.recordLei, ++line]);
    const periodOfFiling = filingPeriods(filer.facts, source);
    // Of all the filer's facts, whatever their concept (design §18.1): once for every year-end spec.
    const yearEnds = anyYearEnd ? fiscalYearEnds(filer.facts, (form) => source.isAnnualForm(form)) : undefined;
    const storedDocuments = anyStored
      ? await conn
          .selectFrom('documents')
          .select(['document_id', 'source_key', 'published_on', 'reporting_period'])
          .where('company_id', '=', companyId)
          .where('source', '=', source.name)
          .execute()
      : [];
    // A filing stored under an id of its own (a bundle's, carrying the source's key) stays that document.
    const storedFilings = new Map(storedDocuments.map((d) => [d.source_key as string, d.document_id]));
    // Filings stored without a date (an ESEF report no index listed then), which the source may date now.
    const undatedFilings = new Set(storedDocuments.filter((d) => d.published_on === '').map((d) => d.source_key as string));
    const staged = new Set<string>();
    const stageDocument = async (fact: FiledFact, reportingPeriod: number): Promise<string> => {
      const doc = source.document(filer, fact);
      const documentId = storedFilings.get(fact.accession) ?? doc.documentId;
      if (staged.has(fact.accession)) return documentId;
      staged.add(fact.accession);
      if (!storedFilings.has(fact.accession)) summary.documents++;
      await documents.add([
        documentId,
        companyId,
        doc.title.slice(0, 500),
        doc.sourceUrl,
        fact.filed,
        periodOfFiling.get(fact.accession) ?? reportingPeriod,
        'processed',
        doc.form,
        doc.accession,
        'financial',
        null,
        source.name,
        fact.accession,
        ++line,
      ]);
      return documentId;
    };
    // The figures stored already, of every spec whose table holds any: one look-up for the filer.
    const filedSpecs = anyFiled.flatMap((filed, i) => (filed ? [i] : []));
    const storedRows = await storedFigureRows(
      conn,
      filedSpecs.map((i) => specs[i] as FigureSpec),
      source.name,
      companyId,
      new Map(storedDocuments.map((d) => [d.document_id, d])),
    );
    for (const [i, spec] of specs.entries()) {
      const filed = filedSpecs.indexOf(i);
      await stageSpec(
        run,
        {
          spec,
          counts: countsOf[i] as FigureCounts,
          skip: skipper(countsOf[i] as FigureCounts),
        },
        {
          filer,
          facts: specFacts[i] as FiledFact[],
          yearEnds,
          companyId,
          storedRows: filed < 0 ? [] : (storedRows[filed] ?? []),
          periodOfFiling,
        },
        { stageDocument, points: points[i] as StageWriter, nextLine: () => ++line },
        summary,
      );
    }
    // A filing stored undated that now comes with its date is the same document, written again:
    // dated, titled and linked as the source now knows it (its figures are already stored).
    // (Most filers have none: their facts, all of them, are not gone through for nothing.)
    for (const fact of undatedFilings.size === 0 ? [] : filer.facts) {
      if (fact.filed === '' || staged.has(fact.accession) || !undatedFilings.has(fact.accession)) continue;
      await stageDocument(fact, periodOfFiling.get(fact.accession) ?? reportingPeriodOf(fact.end));
    }
    // A new company only for a filer that gave something: a data set's quarterly filers are many.
    if (added !== undefined && staged.size > 0) {
      await companies.add([added.companyId, added.name, added.country, added.lei, null, null, null, added.cik, null, ++line]);
      matcher.remember(added);
      summary.companies_added++;
    }
  }
  options.onProgress?.(summary.filers, true);
  await companies.flush();
  await documents.flush();
  await leis.flush();
  for (const p of points) await p.flush();
  return { issues: [], result: summary };
}

/** One spec's figures of one filer: selected, converted to USD, staged with their documents. */
async function stageSpec(
  run: Run,
  {
    spec,
    counts,
    skip,
  }: {
    spec: FigureSpec;
    counts: FigureCounts;
    skip: (r: SkipReason) => void;
  },
  {
    filer,
    facts,
    yearEnds,
    companyId,
    storedRows,
    periodOfFiling,
  }: {
    filer: Filer;
    /** The filer's facts of the spec's concepts, guard and companions, in the order read. */
    facts: readonly FiledFact[];
    /** The filer's fiscal-year ends, of all its facts. */
    yearEnds: ReadonlySet<string> | undefined;
    companyId: string;
    /** The spec's figures the database holds for the company from this source. */
    storedRows: readonly StoredFigureRow[];
    periodOfFiling: ReadonlyMap<string, number>;
  },
  out: {
    stageDocument: (fact: FiledFact, reportingPeriod: number) => Promise<string>;
    points: StageWriter;
    nextLine: () => number;
  },
  summary: { data_points: number; restatements: number },
): Promise<void> {
  const { source, rates } = run;
  const stored = storedRows.map((r) => storedPoint(spec, r));
  const rules = {
    ...selectionRules(
      spec,
      isCurrency,
      (form) => source.isAnnualForm(form),
      (accession) => periodOfFiling.get(accession),
    ),
    ...(spec.period === 'year end' && yearEnds !== undefined ? { yearEnds } : {}),
  };
  // Selection reads the spec's own facts, its guard's and companions' (it passes over any other).
  const { figures, confirmations } = selectFiguresAndConfirmations(facts, stored, rules, skip);
  // Later filings repeating a kept figure rounded: named on the kept figure, their documents kept.
  const confirmedBy = new Map<string, string[]>();
  for (const c of confirmations) {
    const key = `${c.accession}|${c.end}`;
    const documentId = await out.stageDocument(c.by, reportingPeriodOf(c.by.end));
    confirmedBy.set(key, [...(confirmedBy.get(key) ?? []), `${documentId}=${c.by.value}`]);
  }
  for (const { fact, reportingPeriod, restatement, candidates } of figures) {
    // A per-share figure is stored in its currency (`EUR`), its USD value rounded to 4 decimals.
    const currency = storedCurrency(spec, fact.unit);
    const basis = rateCurrency(currency).currency;
    const rate = currency === 'USD' ? undefined : rates.get(rateKey(basis, reportingPeriod));
    if (currency !== 'USD' && rate === undefined) {
      skip('no_fx_rate');
      continue;
    }
    let valueUsd: number;
    try {
      valueUsd = toUsd(fact.value, currency, rate?.usdPerUnit ?? '1', usdStep(spec));
    } catch (error) {
      throw new ImportError([{ file: filer.source, line: 0, message: `${describe(fact)}: ${(error as Error).message}` }]);
    }
    const documentId = await out.stageDocument(fact, reportingPeriod);
    counts.data_points++;
    summary.data_points++;
    if (restatement) {
      counts.restatements++;
      summary.restatements++;
    }
    const key = `${fact.accession}|${fact.end}`;
    await out.points.add([
      spec.pointId(documentId, reportingPeriod),
      companyId,
      documentId,
      reportingPeriod,
      fact.value,
      currency,
      valueUsd,
      basis,
      fact.concept,
      fact.instant === true ? null : fact.start,
      fact.end,
      candidatesText(candidates),
      confirmedBy.get(key)?.join(' ') ?? null,
      traceFieldsText(fact.trace),
      out.nextLine(),
    ]);
    confirmedBy.delete(key);
  }
  // The source's own fields of each fact, to compare with a stored figure's (a report since listed
  // by the index now has its fxo_id and links).
  // Only stored figures are compared, and a fact without fields of its own has none to tell.
  const detailOf = new Map<string, string>();
  for (const f of stored.length === 0 ? [] : facts) {
    if (f.trace === undefined || f.trace.length === 0) continue;
    if (rules.rank(f.concept) === undefined && rules.guard?.(f.concept) !== true) continue;
    const text = traceFieldsText(f.trace);
    if (text !== null) detailOf.set(`${f.accession}|${f.end}|${f.concept}`, text);
  }
  // What is left confirms a figure an earlier run stored: it is staged again, now naming them; so is a
  // stored figure whose source now tells more of it.
  for (const s of stored) {
    const more = confirmedBy.get(`${s.accession}|${s.end}`);
    const detail = detailOf.get(`${s.accession}|${s.end}|${s.concept}`);
    const newDetail = detail !== undefined && detail !== s.sourceDetail ? detail : undefined;
    if (more === undefined && newDetail === undefined) continue;
    const all = more === undefined ? s.confirmedBy : [...new Set([...(s.confirmedBy?.split(' ') ?? []), ...more])].join(' ');
    await out.points.add([
      s.pointId,
      companyId,
      s.documentId,
      s.reportingPeriod,
      s.value,
      storedCurrency(spec, s.currency),
      s.valueUsd,
      rateCurrency(storedCurrency(spec, s.currency)).currency,
      s.concept,
      s.start,
      s.end,
      s.candidates,
      all,
      newDetail ?? s.sourceDetail,
      out.nextLine(),
    ]);
  }
}

/** The company that already holds documents of these filings in this source, if any. */
async function holderOf(db: Kysely<Database>, source: string, facts: readonly FiledFact[]): Promise<string | undefined> {
  const keys = [...new Set(facts.map((f) => f.accession))];
  // In slices: a parameter list stays far below either dialect's limit.
  for (let i = 0; i < keys.length; i += 500) {
    const row = await db
      .selectFrom('documents')
      .select('company_id')
      .where('source', '=', source)
      .where('source_key', 'in', keys.slice(i, i + 500))
      .limit(1)
      .executeTakeFirst();
    if (row !== undefined) return row.company_id;
  }
  return undefined;
}

/** For each concept, the specs that read it (as their own, a guard or a companion), by index. */
function readersOf(specs: readonly FigureSpec[]): Map<string, number[]> {
  const readers = new Map<string, number[]>();
  for (const [i, spec] of specs.entries()) {
    for (const concept of new Set([...conceptsOf(spec), ...guardConceptsOf(spec), ...companionConceptsOf(spec)])) {
      readers.set(concept, [...(readers.get(concept) ?? []), i]);
    }
  }
  return readers;
}

/**
 * A filer's facts per spec, each list in the order read: indexed once by concept, so that each
 * spec goes through its own facts rather than all the filer's.
 */
function factsBySpec(facts: readonly FiledFact[], specs: number, readers: ReadonlyMap<string, number[]>): FiledFact[][] {
  const bySpec = Array.from({ length: specs }, (): FiledFact[] => []);
  for (const f of facts) {
    for (const i of readers.get(f.concept) ?? []) bySpec[i]?.push(f);
  }
  return bySpec;
}

/** The period each filing reports on: the latest fiscal year among its annual facts, of any spec. */
function filingPeriods(facts: readonly FiledFact[], source: FilingSource): Map<string, number> {
  const periods = new Map<string, number>();
  for (const f of facts) {
    if (!source.isAnnualForm(f.form) || (f.start !== null && !isAnnualPeriod(f.start, f.end))) continue;
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
  sourceDetail: string | null;
}

/** A per-share spec's facts come in `{currency}/shares`; its figures are stored in the currency. */
const storedCurrency = (spec: FigureSpec, unit: string): string =>
  spec.perShare === true ? (perShareCurrency(unit) ?? unit) : unit;

/** The USD value's rounding step: 4 decimals of a per-share value in millionths, else a whole unit. */
const usdStep = (spec: FigureSpec): number => (spec.perShare === true ? PER_SHARE_USD_STEP : 1);

/** A stored figure as selection compares it with a filing's facts: a per-share one in its fact's unit. */
function storedPoint(spec: FigureSpec, r: StoredFigureRow): StoredPoint {
  return {
    accession: r.source_key,
    filed: r.published_on,
    filingPeriod: Number(r.document_period),
    end: r.period_end,
    value: Number(r.original_value),
    currency: spec.perShare === true ? perShareUnit(r.original_ccy) : r.original_ccy,
    pointId: r.point_id,
    documentId: r.document_id,
    reportingPeriod: Number(r.reporting_period),
    valueUsd: Number(r.value_usd),
    concept: r.concept,
    start: r.period_start,
    candidates: r.candidates,
    confirmedBy: r.confirmed_by,
    sourceDetail: r.source_detail,
  };
}

/** Candidates as stored: `concept=value` pairs separated by spaces; null when there are none. */
export function candidatesText(candidates: readonly Candidate[]): string | null {
  return candidates.length === 0 ? null : candidates.map((c) => `${c.concept}=${c.value}`).join(' ');
}

/**
 * `key=value` pairs as stored (space-separated): candidates (`concept=value`) and confirmed_by
 * (`document_id=value`). A malformed pair is left out.
 */
export function parsePairs(text: string | null | undefined): Array<{ key: string; value: number }> {
  if (text === null || text === undefined || text === '') return [];
  return text.split(' ').flatMap((item) => {
    const at = item.lastIndexOf('=');
    const value = Number(item.slice(at + 1));
    return at < 0 || !Number.isSafeInteger(value) ? [] : [{ key: item.slice(0, at), value }];
  });
}

/** A fact as the operator can find it in the source. */
export function describe(fact: Pick<FiledFact, 'concept' | 'accession' | 'end'>): string {
  return `${fact.concept} of accession ${fact.accession} ending ${fact.end}`;
}
