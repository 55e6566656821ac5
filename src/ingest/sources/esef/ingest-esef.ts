import type { Kysely } from 'kysely';
import type { IngestLimits } from '../../../config.js';
import type { Database } from '../../../db/schema.js';
import { conceptRank, conceptsOfAll, type FigureSpec } from '../../core/figure-spec.js';
import { type FilingsSummary, ingestFilings } from '../../filings/ingest-filings.js';
import type { Filer } from '../../filings/source.js';
import { type EsefFiler, type EsefReadCounts, loadEsefIndex, readEsefFilers } from './esef-filers.js';
import { ESEF_SKIP_REASONS, type EsefSkipReason } from './esef-report.js';
import { esefFiler, esefSource } from './esef-source.js';

/**
 * What `ingest esef` printed: the shared pipeline's counts, the reports read, and under `skipped`
 * the reader's reasons too (a dimensional fact, a duplicate, a report given twice) beside the
 * pipeline's (an unknown filer, a missing FX rate).
 */
export interface EsefIngestSummary extends Omit<FilingsSummary, 'skipped' | 'datasets'> {
  reports: number;
  /**
   * Reports with no fact any spec reads (a bank without `Revenue`, an explorer before
   * production): read, counted here, and left without a document.
   */
  reports_without_figures: number;
  /** Reports the index does not list: their documents are published on an unknown date (design §14.5). */
  reports_undated: number;
  /** Reports stored undated that the index lists now: the same documents, dated and linked. */
  reports_dated: number;
  /** `not_report`: files passed over as no report (an index page, a stray file), see {@link EsefReadCounts}. */
  skipped: FilingsSummary['skipped'] & Partial<Record<EsefSkipReason | 'repeated_report' | 'not_report', number>>;
  /** Per figure spec, also the reports that tag none of its concepts (a bank has no revenue). */
  datasets: Record<string, FilingsSummary['datasets'][string] & { reports_without_figures: number }>;
}

async function* each(filers: readonly Filer[]): AsyncIterable<Filer> {
  yield* filers;
}

/**
 * `bin/corpdata ingest esef` (design §14): xBRL-JSON reports (files not reports passed over and
 * counted) identified through the stored index
 * (`ingest esef-index`), read whole and checked first (a malformed report refuses the whole
 * before anything is written), then through the shared filings pipeline in one transaction.
 * The same reports twice change nothing.
 */
export async function ingestEsef(
  db: Kysely<Database>,
  paths: readonly string[],
  limits: IngestLimits,
  specs: readonly FigureSpec[],
  onProgress?: (filers: number, done?: boolean) => void,
  /**
   * What a file that is no report does: passed over and counted (`pass`, an operator's folder
   * holding an index page), or refusing the ingest (`refuse`, a sync's download that was meant to
   * be a report: an error page, which must be fetched again rather than recorded as synced).
   */
  notReports: 'pass' | 'refuse' = 'pass',
): Promise<EsefIngestSummary> {
  const index = await loadEsefIndex(db);
  const counts: EsefReadCounts = { reports: 0, repeated_report: 0, not_report: 0 };
  const filers = await readEsefFilers(paths, limits, [...conceptsOfAll(specs)], index, counts, notReports);
  const dated = await keepUnlistedKeys(db, filers);
  const summary = await ingestFilings(
    db,
    paths.join(' '),
    esefSource(filers),
    specs,
    each(filers.map(esefFiler)),
    onProgress === undefined ? {} : { onProgress },
  );
  const skipped: EsefIngestSummary['skipped'] = { ...summary.skipped };
  for (const reason of ESEF_SKIP_REASONS) {
    const n = filers.reduce((sum, f) => sum + f.filings.reduce((s, r) => s + r.skipped[reason], 0), 0);
    if (n > 0) skipped[reason] = n;
  }
  if (counts.repeated_report > 0) skipped.repeated_report = counts.repeated_report;
  if (counts.not_report > 0) skipped.not_report = counts.not_report;
  const undated = filers.reduce((n, f) => n + f.filings.filter((r) => r.publishedOn === null).length, 0);
  const withoutFigures = filers.reduce((n, f) => n + f.filings.filter((r) => r.facts.length === 0).length, 0);
  const datasets: EsefIngestSummary['datasets'] = {};
  for (const spec of specs) {
    const rank = conceptRank(spec);
    const without = filers.reduce(
      (n, f) => n + f.filings.filter((r) => !r.facts.some((x) => rank(x.concept) !== undefined)).length,
      0,
    );
    datasets[spec.name] = {
      ...(summary.datasets[spec.name] as FilingsSummary['datasets'][string]),
      reports_without_figures: without,
    };
  }
  const { filers: filerCount, ...rest } = summary;
  return {
    filers: filerCount,
    reports: counts.reports,
    reports_without_figures: withoutFigures,
    reports_undated: undated,
    reports_dated: dated,
    ...rest,
    skipped,
    datasets,
  };
}

/** Keys looked up per query: well below either database's limit on bound parameters. */
const KEYS_PER_QUERY = 500;

/**
 * A listed report that an earlier ingest stored before the index listed it is that document still
 * (design §14.5: one document per report): it keeps the key it was stored under (LEI, period end,
 * language), and the pipeline dates it, links it and completes its figures' fields. Returns how
 * many such documents are dated by this ingest (those stored undated until now).
 */
async function keepUnlistedKeys(db: Kysely<Database>, filers: readonly EsefFiler[]): Promise<number> {
  const listed = filers.flatMap((f) => f.filings).filter((r) => r.fxoId !== null && r.unlistedKey !== r.key);
  const stored = new Map<string, string>();
  for (let i = 0; i < listed.length; i += KEYS_PER_QUERY) {
    const keys = listed.slice(i, i + KEYS_PER_QUERY).map((r) => r.unlistedKey);
    const rows = await db
      .selectFrom('documents')
      .select(['source_key', 'published_on'])
      .where('source', '=', 'esef')
      .where('source_key', 'in', keys)
      .execute();
    for (const r of rows) if (r.source_key !== null) stored.set(r.source_key, r.published_on);
  }
  // Two listings of one LEI, period end and language in the input (a report filed again) would be
  // one filing under that key: both keep their fxo_id, and the stored report stays undated.
  const shared = new Map<string, number>();
  for (const report of listed) shared.set(report.unlistedKey, (shared.get(report.unlistedKey) ?? 0) + 1);
  let dated = 0;
  for (const report of listed) {
    const publishedOn = stored.get(report.unlistedKey);
    if (publishedOn === undefined || shared.get(report.unlistedKey) !== 1) continue;
    report.key = report.unlistedKey;
    if (publishedOn === '') dated++;
  }
  return dated;
}
