import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { ImportError } from '../../core/issues.js';
import { zeroFilingsSummary } from '../../filings/ingest-filings.js';
import { CompanyMatcher } from '../../filings/match-company.js';
import { insideFolder } from '../../sync/download-name.js';
import type { FetchCounts, FetchOutcome } from '../../sync/source-fetcher.js';
import { addCounts, mapLimit } from '../../sync/sync-counts.js';
import { ingestEach, logRefusal } from '../../sync/sync-ingest.js';
import type { SourceSyncOptions } from '../../sync/sync-run.js';
import { readFetchedAt, readValidators, recordSynced, type SyncedFile } from '../../sync/sync-state.js';
import { countryName } from './esef-source.js';
import { type EsefIngestSummary, ingestEsef } from './ingest-esef.js';
import { type EsefIndexSummary, esefFilingRow, ingestEsefIndex } from './ingest-index.js';
import { type EsefIndexEntry, readEsefIndexPage } from './read-index.js';

/**
 * filings.xbrl.org publishes no rate limit; it is a small non-profit service, so a sync asks at
 * half the rate SEC allows.
 */
export const ESEF_REQUESTS_PER_SECOND = 5;

/** Filings per index page: few pages for a country's whole history, small enough to read at once. */
const PAGE_SIZE = 100;

/** A loop guard: no country's index has nearly this many pages of {@link PAGE_SIZE}. */
const MAX_PAGES = 1000;

/** Reports in flight at once. */
const CONCURRENCY = 2;

const SOURCE = 'esef';
const indexKey = (country: string | null) => `index/${country ?? 'all'}`;
const reportKey = (fxoId: string) => `report/${fxoId}`;

export interface EsefSyncOptions extends SourceSyncOptions {
  /** ISO 3166 codes (`ES`, `GB`) whose index is walked; null: the whole index. */
  readonly countries: readonly string[] | null;
  /** YYYY-MM-DD: reports the index added before it are neither walked past nor fetched. */
  readonly since: string | null;
  /** Ignore the sync state: every report in scope is fetched and ingested again. */
  readonly refetch: boolean;
  /** Where the index and reports are fetched from: filings.xbrl.org, or a mirror or test server. */
  readonly base: string;
}

/** What `sync esef` prints: the requests made, the index pages and reports, and the ingests' counts. */
export interface EsefSyncSummary {
  source: 'esef';
  dry_run: boolean;
  /** The countries walked; null: the whole index. */
  countries: string[] | null;
  since: string | null;
  requests: FetchCounts;
  /** Index pages read. */
  index_pages: number;
  /** `ingest esef-index` of the pages read; null when no page was new (or on a dry run). */
  index: EsefIndexSummary | null;
  reports: {
    /**
     * Reports in scope the sync state does not hold (or that filings.xbrl.org processed again
     * since it fetched them), of filers in the catalog: fetched now (on a dry run: would be).
     */
    to_fetch: number;
    /** Reports in scope of filers no catalog company is: not fetched, as the ingest would skip them. */
    not_in_catalog: number;
    /** Fetched and ingested. */
    fetched: number;
    /** Listed by the index but not found at their URL: recorded, not asked for again until reprocessed. */
    not_found: number;
    /**
     * Reports in scope not fetched for a fault of their listing (a `json_url` that does not
     * decode), by reason: named on stderr, skipped again by every sync until the index lists them anew.
     */
    skipped: Partial<Record<ReportUrlFault, number>>;
  };
  esef: EsefIngestSummary;
  /** Downloaded files an ingest refused as malformed (named on stderr); not recorded, so fetched again next time. */
  files_refused: number;
}

interface Pending {
  readonly fxoId: string;
  /** The public URL the index gives (stored as the document's). */
  readonly jsonUrl: string;
  /** Where it is fetched from: its path on {@link EsefSyncOptions.base}. */
  readonly url: string;
}

interface Fetched {
  readonly key: string;
  readonly url: string;
  readonly path: string;
  readonly outcome: FetchOutcome;
}

/**
 * A URL of filings.xbrl.org (the index writes its own host, or a path alone) moved to the base the
 * sync reads from.
 */
export function rebase(url: string, base: string): string {
  const u = new URL(url, `${base}/`);
  return `${base}${u.pathname}${u.search}`;
}

/**
 * A plain file name: letters, digits, `.`, `_`, `-`, starting with a letter or digit (so never
 * `.` or `..`), no separator, no percent-encoding. filings.xbrl.org names every report so.
 */
const PLAIN_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/**
 * The name a report's download is given, issued by the sync and never decoded from the URL: the
 * last segment of `jsonUrl` as the stored index has it when that is a plain file name (the ESEF
 * ingest identifies a report by its index listing's file name, which tells refilings of one
 * period apart), else a name made of the URL's hash (the ingest then identifies the report by
 * its LEI and period). Either way one name, no separator, no `..`.
 */
export function reportFileName(jsonUrl: string): string {
  const last = jsonUrl.slice(jsonUrl.lastIndexOf('/') + 1);
  if (PLAIN_NAME.test(last)) return last;
  return `report-${createHash('sha256').update(jsonUrl).digest('hex').slice(0, 32)}.json`;
}

/** Why a report's `json_url` cannot be fetched: not an http(s) URL, or its percent-encoding malformed. */
export type ReportUrlFault = 'malformed_json_url';

/**
 * Where a report listed at `jsonUrl` is fetched from: the same path on `base` (filings.xbrl.org,
 * a mirror, a test server), or the fault that has it skipped. A `json_url` whose path does not
 * decode (`%E0%A4%A`) is skipped rather than sent on: the source could not have meant it.
 */
export function reportSource(jsonUrl: string, base: string): { url: string } | { fault: ReportUrlFault } {
  try {
    const u = new URL(jsonUrl, `${base}/`);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') return { fault: 'malformed_json_url' };
    decodeURIComponent(u.pathname);
    return { url: rebase(jsonUrl, base) };
  } catch {
    return { fault: 'malformed_json_url' };
  }
}

/** The first index page of a country (or of the whole index): newest first, with entities. */
export function firstPageUrl(base: string, country: string | null): string {
  const query = new URLSearchParams();
  if (country !== null) query.set('filter[country]', country);
  query.set('sort', '-date_added');
  query.set('include', 'entity');
  query.set('page[size]', String(PAGE_SIZE));
  return `${base}/api/filings?${query}`;
}

/**
 * Syncs ESEF reports from filings.xbrl.org (design §15): per country the index newest first,
 * following `links.next` until a page holds only reports already seen (or added before `since`),
 * its pages ingested as `ingest esef-index` does; then every report in scope the sync state does
 * not hold, fetched and ingested in batches as `ingest esef` does, each batch recorded once its
 * data is in. The reports to fetch come from the stored index, not from this run's pages, so a
 * sync killed after the index is in fetches the rest next time; a first page answering 304 means
 * nothing new was listed.
 */
export async function syncEsef(db: Kysely<Database>, options: EsefSyncOptions): Promise<EsefSyncSummary> {
  const { fetcher, dryRun, log } = options;
  const summary: EsefSyncSummary = {
    source: SOURCE,
    dry_run: dryRun,
    countries: options.countries === null ? null : [...options.countries],
    since: options.since,
    requests: fetcher.counts,
    index_pages: 0,
    index: null,
    reports: { to_fetch: 0, not_in_catalog: 0, fetched: 0, not_found: 0, skipped: {} },
    esef: { ...zeroFilingsSummary(), reports: 0, reports_dated: 0, reports_undated: 0, reports_without_figures: 0, datasets: {} },
    files_refused: 0,
  };
  await mkdir(options.workDir, { recursive: true });
  const held = new Map(
    (await db.selectFrom('esef_filings').select(['fxo_id', 'processed']).execute()).map((r) => [r.fxo_id, r.processed]),
  );

  const pagePaths: string[] = [];
  const listed: EsefIndexEntry[] = [];
  const scopes = options.countries ?? [null];
  const firstPages = new Map<string, Fetched>();
  for (const country of scopes) {
    const walk = await walkIndex(db, options, country, held, summary);
    pagePaths.push(...walk.paths);
    listed.push(...walk.entries);
    // Only a whole walk (not one bounded by --since) may answer "nothing new" by its first page's 304.
    if (walk.complete && walk.first !== null && options.since === null) firstPages.set(indexKey(country), walk.first);
  }
  try {
    if (!dryRun && pagePaths.length > 0) {
      try {
        summary.index = await ingestEsefIndex(db, pagePaths, options.limits);
      } catch (error) {
        summary.files_refused += logRefusal(SOURCE, log, error, []);
      }
      // A country's first page is recorded only when its whole walk went in: a walk cut short (or
      // bounded by --since) is walked again next time, not answered 304 while its later pages were
      // never read.
      if (summary.index !== null) await record(db, options, [...firstPages.values()]);
    }
  } finally {
    await Promise.all(pagePaths.map((p) => rm(p, { force: true })));
  }

  const pending = await pendingReports(db, options, dryRun ? listed : [], summary);
  log(
    `sync esef: ${pending.length} reports to fetch${summary.reports.not_in_catalog > 0 ? `, ${summary.reports.not_in_catalog} of filers not in the catalog left` : ''}`,
  );
  summary.reports.to_fetch = pending.length;
  if (dryRun) return summary;
  const started = Date.now();
  for (let i = 0; i < pending.length; i += options.batchSize) {
    if (options.lock?.lost) throw new Error('another sync took the lock over (this one was too slow to renew it); stopped');
    if (fetcher.outOfTime) {
      log(`sync esef: the time budget of this sync is spent; ${pending.length - i} reports left for the next sync`);
      break;
    }
    const batch = pending.slice(i, i + options.batchSize);
    const fetched = await mapLimit(batch, CONCURRENCY, async (report, j) => {
      // Each report in a folder of its own, under a name the sync issues (never one decoded from
      // the URL): the ingest finds a report's index entry by its listing's file name, and two
      // refilings may share it.
      const dir = insideFolder(options.workDir, `r${i + j}`);
      await mkdir(dir, { recursive: true });
      const path = insideFolder(dir, reportFileName(report.jsonUrl));
      const outcome = await fetcher.get(report.url, undefined, path);
      return { key: reportKey(report.fxoId), url: report.jsonUrl, path, outcome } satisfies Fetched;
    });
    try {
      const downloads = fetched.filter((f) => f.outcome.kind === 'downloaded');
      const ingested = await ingestEach(
        downloads,
        // A download that is no report (an error page served as 200) is refused, not passed over:
        // unrecorded, it is fetched again on the next run.
        async (paths) => addCounts(summary.esef, await ingestEsef(db, paths, options.limits, options.specs, undefined, 'refuse')),
        (error, files) => {
          summary.files_refused += logRefusal(SOURCE, log, error, files);
        },
      );
      const gone = fetched.filter((f) => f.outcome.kind === 'not_found');
      summary.reports.fetched += ingested.length;
      summary.reports.not_found += gone.length;
      await record(db, options, [...ingested, ...gone]);
    } finally {
      await Promise.all(fetched.map((f) => rm(f.path, { force: true })));
    }
    const c = fetcher.counts;
    log(
      `sync esef: ${Math.min(i + options.batchSize, pending.length)} of ${pending.length} reports, ` +
        `${summary.reports.fetched} ingested, ${c.given_up} given up (${Math.round((Date.now() - started) / 1000)} s)`,
    );
  }
  return summary;
}

interface Walk {
  paths: string[];
  entries: EsefIndexEntry[];
  /** The first page as fetched (null when it was not downloaded). */
  first: Fetched | null;
  /** The walk reached its end (the last page, reports seen, or a 304): nothing of it is left unread. */
  complete: boolean;
}

/** Walks one country's index (or the whole index) newest first, page by page, as far as something is new. */
async function walkIndex(
  db: Kysely<Database>,
  options: EsefSyncOptions,
  country: string | null,
  held: ReadonlyMap<string, string | null>,
  summary: EsefSyncSummary,
): Promise<Walk> {
  const { log } = options;
  const walk: Walk = { paths: [], entries: [], first: null, complete: false };
  const known = options.refetch ? new Map() : await readValidators(db, SOURCE, [indexKey(country)]);
  const walkedBefore = known.has(indexKey(country));
  const visited = new Set<string>();
  let url: string | null = firstPageUrl(options.base, country);
  const scope = country ?? 'all countries';
  while (url !== null) {
    if (visited.has(url) || visited.size >= MAX_PAGES) {
      log(`sync esef: ${scope}: the index's next page ${url} was read already; stopped there`);
      return { ...walk, complete: true };
    }
    const first = visited.size === 0;
    visited.add(url);
    const path = insideFolder(options.workDir, `${country ?? 'all'}-page-${visited.size}.json`);
    const outcome = await options.fetcher.get(url, first ? known.get(indexKey(country)) : undefined, path);
    if (outcome.kind === 'not_modified') {
      log(`sync esef: ${scope}: the index lists nothing new`);
      return { ...walk, complete: true };
    }
    if (outcome.kind !== 'downloaded') {
      log(
        `sync esef: ${scope}: index page ${url} ${outcome.kind === 'failed' ? outcome.reason : 'not found'}; the walk stops here`,
      );
      return walk;
    }
    let page: Awaited<ReturnType<typeof readEsefIndexPage>>;
    try {
      page = await readEsefIndexPage(createReadStream(path), url);
    } catch (error) {
      await rm(path, { force: true });
      if (!(error instanceof ImportError)) throw error;
      summary.files_refused += logRefusal(SOURCE, log, error, []);
      return walk;
    }
    const fetched: Fetched = { key: indexKey(country), url, path, outcome };
    if (first) walk.first = fetched;
    walk.paths.push(path);
    walk.entries.push(...page.entries);
    summary.index_pages++;
    const inScope = (e: EsefIndexEntry) => options.since === null || (e.dateAdded ?? '') >= options.since;
    const seen = (e: EsefIndexEntry) => held.has(e.fxoId) && held.get(e.fxoId) === e.processed;
    const inScopeCount = page.entries.filter(inScope).length;
    const fresh = page.entries.filter((e) => inScope(e) && (options.refetch || !seen(e))).length;
    log(`sync esef: ${scope}: page ${visited.size}, ${page.entries.length} reports listed, ${fresh} new`);
    // Newest first: a page older than --since ends the walk, and so does a page of reports seen
    // already, but only after a whole walk went in before (else pages past it may never have been
    // read: a walk cut short, or bounded by --since).
    const next = page.next;
    if (next === null || inScopeCount === 0 || (fresh === 0 && walkedBefore)) return { ...walk, complete: true };
    try {
      url = rebase(next, options.base);
    } catch {
      log(`sync esef: ${scope}: the index's next page ${JSON.stringify(next)} is not a URL; the walk stops here`);
      return walk;
    }
  }
  return { ...walk, complete: true };
}

/**
 * The reports to fetch, oldest first: those the stored index lists in scope (countries, `since`)
 * with an xBRL-JSON, that the sync state does not hold or holds from before filings.xbrl.org
 * processed them again, and whose filer a catalog company is (by LEI, else name and country:
 * design §14.1; a filer the index does not name is fetched, to be matched by its report). On a
 * dry run, `listed` adds what the pages read would have stored.
 */
async function pendingReports(
  db: Kysely<Database>,
  options: EsefSyncOptions,
  listed: readonly EsefIndexEntry[],
  summary: EsefSyncSummary,
): Promise<Pending[]> {
  let query = db.selectFrom('esef_filings').selectAll().where('json_url', 'is not', null);
  if (options.countries !== null) query = query.where('country', 'in', [...options.countries]);
  if (options.since !== null) query = query.where('date_added', '>=', options.since);
  const rows = new Map((await query.execute()).map((r) => [r.fxo_id, r]));
  for (const e of listed) {
    const row = esefFilingRow(e);
    const inScope =
      row.json_url !== null &&
      (options.countries === null || options.countries.includes(row.country ?? '')) &&
      (options.since === null || (row.date_added ?? '') >= options.since);
    if (inScope) rows.set(row.fxo_id, row);
  }
  const all = [...rows.values()].sort(
    (a, b) => (a.date_added ?? '').localeCompare(b.date_added ?? '') || a.fxo_id.localeCompare(b.fxo_id),
  );
  const fetchedAt = options.refetch
    ? new Map<string, string>()
    : await readFetchedAt(
        db,
        SOURCE,
        all.map((r) => reportKey(r.fxo_id)),
      );
  const fresh = all.filter((r) => {
    const at = fetchedAt.get(reportKey(r.fxo_id));
    return at === undefined || (r.processed !== null && at < r.processed);
  });
  const matcher = new CompanyMatcher(db);
  const pending: Pending[] = [];
  for (const r of fresh) {
    const json = reportSource(r.json_url as string, options.base);
    // One bad listing costs only itself, in this sync and every later one (--refetch too).
    if ('fault' in json) {
      summary.reports.skipped[json.fault] = (summary.reports.skipped[json.fault] ?? 0) + 1;
      options.log(`sync esef: report ${JSON.stringify(r.fxo_id)} skipped (${json.fault}): ${JSON.stringify(r.json_url)}`);
      continue;
    }
    const country = r.country === null ? undefined : countryName(r.country);
    const named = r.entity_name !== null;
    const match =
      r.lei === null && !named
        ? true
        : await matcher.match({
            ...(r.lei === null ? {} : { lei: r.lei }),
            name: r.entity_name ?? '',
            ...(country === undefined || !named ? {} : { country }),
          });
    // Unnamed and unmatched by LEI: only its report names the filer, so it is fetched.
    // A name several catalog companies share is no catalog company either: the ingest would skip it.
    if ((match === undefined || match === 'ambiguous') && named) summary.reports.not_in_catalog++;
    else pending.push({ fxoId: r.fxo_id, jsonUrl: r.json_url as string, url: json.url });
  }
  return pending;
}

async function record(db: Kysely<Database>, options: EsefSyncOptions, files: readonly Fetched[]): Promise<void> {
  const synced: SyncedFile[] = files.map((f) => ({
    fileKey: f.key,
    url: f.url,
    validators: f.outcome.kind === 'downloaded' ? f.outcome.validators : { etag: null, lastModified: null },
    bytes: f.outcome.kind === 'downloaded' ? f.outcome.bytes : 0,
  }));
  await recordSynced(db, SOURCE, synced, options.now());
}

/** Parses `--country`: ISO 3166 codes, comma-separated, any case. */
export function parseCountryList(list: string): string[] {
  const codes = list
    .split(',')
    .map((c) => c.trim().toUpperCase())
    .filter((c) => c !== '');
  if (codes.length === 0) throw new Error('--country needs at least one ISO 3166 country code (ES,GB)');
  for (const c of codes) {
    if (countryName(c) === undefined) throw new Error(`--country: "${c}" is not an ISO 3166 country code (ES, GB, …)`);
  }
  return [...new Set(codes)];
}

/** Parses `--since`: a calendar date. */
export function parseSinceDate(value: string): string {
  const v = value.trim();
  if (
    !/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(v) ||
    Number.isNaN(Date.parse(`${v}T00:00:00Z`)) ||
    new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) !== v
  ) {
    throw new Error(`--since: "${value}" is not a date (YYYY-MM-DD)`);
  }
  return v;
}
