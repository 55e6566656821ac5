import { mkdir, readFile, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { conceptsOfAll } from '../../core/figure-spec.js';
import { type FilingsSummary, ingestFilings, zeroFilingsSummary } from '../../filings/ingest-filings.js';
import { insideFolder } from '../../sync/download-name.js';
import type { FetchCounts, FetchOutcome, Validators } from '../../sync/source-fetcher.js';
import { addCounts, mapLimit } from '../../sync/sync-counts.js';
import { ingestEach, logRefusal } from '../../sync/sync-ingest.js';
import type { SourceSyncOptions } from '../../sync/sync-run.js';
import { readValidators, recordSynced, type SyncedFile } from '../../sync/sync-state.js';
import { ingestSubmissions, type SubmissionsSummary } from './ingest-submissions.js';
import { ingestTickers, type TickersSummary } from './ingest-tickers.js';
import { readCompanyFacts } from './read-companyfacts.js';
import { submissionsPageCik } from './read-submissions.js';
import { normalizeCik } from './rules.js';
import { secSource } from './sec-source.js';

/** SEC's own hosts: the ticker file is on www.sec.gov, the per-filer JSON on data.sec.gov. */
export const SEC_HOSTS = Object.freeze({ www: 'https://www.sec.gov', data: 'https://data.sec.gov' });

/** SEC's fair-access policy: at most 10 requests a second from one client. */
export const SEC_REQUESTS_PER_SECOND = 10;

/** Requests in flight at once: enough to fill the rate over SEC's latency, few enough to stay polite. */
const CONCURRENCY = 4;

const SOURCE = 'sec';
const TICKERS_KEY = 'files/company_tickers_exchange.json';
const factsKey = (cik: string) => `api/xbrl/companyfacts/CIK${cik}.json`;
const submissionsKey = (cik: string) => `submissions/CIK${cik}.json`;

/** Which filers a sync fetches besides the ticker file. */
export type SecFilers = { readonly ciks: readonly string[] } | 'all' | 'none';

export interface SecSyncOptions extends SourceSyncOptions {
  readonly filers: SecFilers;
  /**
   * Ignore the validators the sync state holds: every file is downloaded and ingested again (after
   * FX rates were added for figures skipped as `no_fx_rate`, say).
   */
  readonly refetch: boolean;
  /** Where each path is fetched from: SEC's hosts, or one base for all (a mirror, a test server). */
  readonly bases: { readonly www: string; readonly data: string };
}

/** What `sync sec` prints: the requests made, and the counts of the ingests they fed. */
export interface SecSyncSummary {
  source: 'sec';
  dry_run: boolean;
  /** Filers fetched. */
  filers: number;
  /**
   * CIKs asked for that no catalog company has once the ticker file is in: not fetched, since the
   * ingest skips a filer it cannot match (a dry run, which ingests no ticker file, asks for them all).
   */
  filers_not_in_catalog: number;
  requests: FetchCounts;
  /** The ticker file's ingest; null when it was unchanged, not fetched, or on a dry run. */
  tickers: TickersSummary | null;
  companyfacts: FilingsSummary;
  submissions: SubmissionsSummary;
  /** Downloaded files an ingest refused as malformed (named on stderr); not recorded, so fetched again next time. */
  files_refused: number;
}

/** One file of a filer: where it comes from, where it goes, what came back. */
interface Fetched {
  readonly cik: string;
  readonly key: string;
  readonly url: string;
  readonly path: string;
  readonly outcome: FetchOutcome;
}

/**
 * Syncs SEC filings (design §15): the ticker file, then for each filer its companyfacts and its
 * submissions (with the pages of older filings they list), each asked for conditionally on what
 * the sync state holds, and what came new or changed ingested by the ingests of
 * `bin/corpdata ingest` — so a sync ends with the data that ingesting the same files by hand gives.
 * Filers go in batches: a batch's files are ingested (one transaction per ingest), then recorded
 * as synced, so a killed sync resumes at the first batch not recorded and ingests nothing twice.
 */
export async function syncSec(db: Kysely<Database>, options: SecSyncOptions): Promise<SecSyncSummary> {
  const { fetcher, dryRun, log } = options;
  const summary: SecSyncSummary = {
    source: SOURCE,
    dry_run: dryRun,
    filers: 0,
    filers_not_in_catalog: 0,
    requests: fetcher.counts,
    tickers: null,
    companyfacts: zeroFilingsSummary(),
    submissions: {
      filers: 0,
      filings: 0,
      main_documents_recorded: 0,
      unchanged: 0,
      skipped: { filing_not_ingested: 0, no_primary_document: 0, repeated_filing: 0 },
    },
    files_refused: 0,
  };
  const started = Date.now();
  await mkdir(options.workDir, { recursive: true });

  const tickers = await fetchFile(options, '', TICKERS_KEY, options.bases.www, await readValidators(db, SOURCE, [TICKERS_KEY]));
  if (tickers.outcome.kind === 'downloaded') {
    try {
      summary.tickers = await ingestTickers(db, tickers.path, options.limits);
      await record(db, options, [tickers]);
    } catch (error) {
      refused(summary, log, error, [tickers]);
    } finally {
      await rm(tickers.path, { force: true });
    }
  }

  const asked = await filerList(db, options.filers);
  const ciks = dryRun ? asked : await inCatalog(db, asked);
  summary.filers = ciks.length;
  summary.filers_not_in_catalog = asked.length - ciks.length;
  if (summary.filers_not_in_catalog > 0) {
    log(`sync sec: ${summary.filers_not_in_catalog} of the CIKs asked for are no catalog company's: not fetched`);
  }
  if (ciks.length > 0) log(`sync sec: ${ciks.length} filers`);
  for (let i = 0; i < ciks.length; i += options.batchSize) {
    if (options.lock?.lost) throw new Error('another sync took the lock over (this one was too slow to renew it); stopped');
    if (fetcher.outOfTime) {
      log(`sync sec: the time budget of this sync is spent; ${ciks.length - i} filers left for the next sync`);
      break;
    }
    const batch = ciks.slice(i, i + options.batchSize);
    const known = await readValidators(
      db,
      SOURCE,
      batch.flatMap((cik) => [factsKey(cik), submissionsKey(cik)]),
    );
    const fetched = await mapLimit(batch, CONCURRENCY, async (cik) => {
      const facts = await fetchFile(options, cik, factsKey(cik), options.bases.data, known);
      // New figures may name filings whose main documents are in a submissions file synced
      // before they were (companyfacts lags submissions): read the submissions whole again.
      const factsChanged = facts.outcome.kind === 'downloaded' || facts.outcome.kind === 'changed';
      const submissions = await fetchFile(
        options,
        cik,
        submissionsKey(cik),
        options.bases.data,
        factsChanged ? new Map() : known,
      );
      const pages = await fetchPages(db, options, submissions, factsChanged);
      return [facts, [submissions, ...pages]] as const;
    });
    if (!dryRun) await ingestBatch(db, options, summary, fetched);
    const c = fetcher.counts;
    log(
      `sync sec: ${Math.min(i + options.batchSize, ciks.length)} of ${ciks.length} filers, ` +
        `${dryRun ? `${c.changed} files new or changed` : `${c.downloaded} files downloaded`}, ${c.not_modified} unchanged, ` +
        `${c.given_up} given up (${Math.round((Date.now() - started) / 1000)} s)`,
    );
  }
  return summary;
}

/**
 * The pages of older filings a downloaded submissions file lists (SEC keeps a filer's latest
 * filings in its file and the rest in pages `CIK##########-submissions-001.json`, …), fetched as
 * it is: conditionally on the sync state, unless the submissions are read whole again. A file not
 * downloaded (unchanged, or a dry run) is not read, and a name not of that shape and that filer is
 * not fetched. A file that is not JSON lists none: its ingest refuses it.
 */
async function fetchPages(
  db: Kysely<Database>,
  options: SecSyncOptions,
  submissions: Fetched,
  wholeAgain: boolean,
): Promise<Fetched[]> {
  if (submissions.outcome.kind !== 'downloaded') return [];
  let listed: unknown;
  try {
    listed = (JSON.parse(await readFile(submissions.path, 'utf8')) as { filings?: { files?: unknown } }).filings?.files;
  } catch {
    return [];
  }
  if (!Array.isArray(listed)) return [];
  const keys: string[] = [];
  for (const entry of listed as unknown[]) {
    const name = typeof entry === 'object' && entry !== null ? (entry as { name?: unknown }).name : undefined;
    if (typeof name !== 'string' || submissionsPageCik(name) !== submissions.cik) {
      options.log(
        `sync sec: ${submissions.url} lists a page ${JSON.stringify(name)} that is not one of this filer's: not fetched`,
      );
      continue;
    }
    // Listed twice, fetched and recorded once.
    if (!keys.includes(`submissions/${name}`)) keys.push(`submissions/${name}`);
  }
  const known = wholeAgain ? new Map<string, Validators>() : await readValidators(db, SOURCE, keys);
  const pages: Fetched[] = [];
  for (const key of keys) pages.push(await fetchFile(options, submissions.cik, key, options.bases.data, known));
  return pages;
}

async function fetchFile(
  options: SecSyncOptions,
  cik: string,
  key: string,
  base: string,
  known: Map<string, Validators>,
): Promise<Fetched> {
  const url = `${base}/${key}`;
  // The file keeps its own name (an ingest reads a page's CIK from it): a key made of a CIK, or of
  // a page name checked to be that filer's, and kept inside the folder whatever it holds.
  const path = insideFolder(options.workDir, key);
  await mkdir(dirname(path), { recursive: true });
  const outcome = await options.fetcher.get(url, options.refetch ? undefined : known.get(key), options.dryRun ? null : path);
  return { cik, key, url, path, outcome };
}

/** The CIKs to fetch: those given, or every catalog company's (a filer the catalog lacks is skipped by the ingest anyway). */
async function filerList(db: Kysely<Database>, filers: SecFilers): Promise<string[]> {
  if (filers === 'none') return [];
  if (filers === 'all') {
    const rows = await db.selectFrom('companies').select('cik').where('cik', 'is not', null).orderBy('cik').execute();
    return rows.map((r) => r.cik as string);
  }
  return [...new Set(filers.ciks)];
}

/** The CIKs of `ciks` that a catalog company has, in their order. */
async function inCatalog(db: Kysely<Database>, ciks: readonly string[]): Promise<string[]> {
  const held = new Set<string>();
  for (let i = 0; i < ciks.length; i += 500) {
    const rows = await db
      .selectFrom('companies')
      .select('cik')
      .where('cik', 'in', ciks.slice(i, i + 500))
      .execute();
    for (const r of rows) if (r.cik !== null) held.add(r.cik);
  }
  return ciks.filter((c) => held.has(c));
}

/** Parses `--ciks`: CIKs with or without their leading zeros, comma-separated. */
export function parseCikList(list: string): string[] {
  const ciks = list
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '');
  if (ciks.length === 0) throw new Error('--ciks needs at least one CIK');
  return ciks.map((c) => {
    const cik = normalizeCik(c);
    if (cik === undefined) throw new Error(`--ciks: "${c}" is not a CIK (up to 10 digits)`);
    return cik;
  });
}

/**
 * Ingests a batch's downloads, companyfacts first (submissions link the documents they bring), and
 * records what was ingested. Should a file be malformed, the batch's files of that kind are
 * ingested one by one, so that one bad file costs only itself.
 */
async function ingestBatch(
  db: Kysely<Database>,
  options: SecSyncOptions,
  summary: SecSyncSummary,
  fetched: ReadonlyArray<readonly [Fetched, readonly Fetched[]]>,
): Promise<void> {
  const downloaded = (files: Fetched[]) => files.filter((f) => f.outcome.kind === 'downloaded');
  const facts = downloaded(fetched.map(([f]) => f));
  const submissions = downloaded(fetched.flatMap(([, s]) => s));
  try {
    const refuse = (error: unknown, files: readonly Fetched[]) => refused(summary, options.log, error, files);
    const factsIngested = await ingestEach(
      facts,
      async (paths) =>
        addCounts(
          summary.companyfacts,
          await ingestFilings(
            db,
            paths.join(' '),
            secSource,
            options.specs,
            readCompanyFacts(paths, conceptsOfAll(options.specs), options.limits),
          ),
        ),
      refuse,
    );
    const submissionsIngested = await ingestEach(
      submissions,
      async (paths) => addCounts(summary.submissions, await ingestSubmissions(db, paths, options.limits)),
      refuse,
    );
    // A submissions file is recorded once its pages are in too (ingested, unchanged or absent): one
    // given up or refused is asked for again only if the file it is listed in is read again.
    const ingested = new Set(submissionsIngested);
    const settled = (page: Fetched) =>
      ingested.has(page) || page.outcome.kind === 'not_modified' || page.outcome.kind === 'not_found';
    const complete = fetched.flatMap(([, [main, ...pages]]) =>
      main === undefined ? [] : ingested.has(main) && pages.every(settled) ? [main, ...pages] : pages,
    );
    await record(db, options, [...factsIngested, ...complete.filter((f) => ingested.has(f))]);
  } finally {
    await Promise.all([...facts, ...submissions].map((f) => rm(f.path, { force: true })));
  }
}

/** A file an ingest refused: named with its fault on stderr, counted; any other failure ends the sync. */
function refused(summary: SecSyncSummary, log: (line: string) => void, error: unknown, files: readonly Fetched[]): void {
  summary.files_refused += logRefusal(SOURCE, log, error, files);
}

async function record(db: Kysely<Database>, options: SecSyncOptions, files: readonly Fetched[]): Promise<void> {
  const synced: SyncedFile[] = [];
  for (const f of files) {
    if (f.outcome.kind !== 'downloaded') continue;
    synced.push({ fileKey: f.key, url: f.url, validators: f.outcome.validators, bytes: f.outcome.bytes });
  }
  await recordSynced(db, SOURCE, synced, options.now());
}
