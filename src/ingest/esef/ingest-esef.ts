import type { Kysely } from 'kysely';
import type { IngestLimits } from '../../config.js';
import type { Database } from '../../db/schema.js';
import { conceptRank, conceptsOfAll, type FigureSpec } from '../core/figure-spec.js';
import { type FilingsSummary, ingestFilings } from '../filings/ingest-filings.js';
import type { Filer } from '../filings/source.js';
import { type EsefReadCounts, loadEsefIndex, readEsefFilers } from './esef-filers.js';
import { ESEF_SKIP_REASONS, type EsefSkipReason } from './esef-report.js';
import { esefFiler, esefSource, undatedFacts } from './esef-source.js';

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
  skipped: FilingsSummary['skipped'] & Partial<Record<EsefSkipReason | 'repeated_report' | 'undated_report', number>>;
  /** Per figure spec, also the reports that tag none of its concepts (a bank has no revenue). */
  datasets: Record<string, FilingsSummary['datasets'][string] & { reports_without_figures: number }>;
}

async function* each(filers: readonly Filer[]): AsyncIterable<Filer> {
  yield* filers;
}

/**
 * `bin/corpdata ingest esef` (DESIGN §14): xBRL-JSON reports identified through the stored index
 * (`ingest esef-index`), read whole and checked first (a malformed report refuses the whole
 * before anything is written), then through the shared filings pipeline in one transaction.
 * The same reports twice change nothing.
 */
export async function ingestEsef(
  db: Kysely<Database>,
  paths: readonly string[],
  limits: IngestLimits,
  specs: readonly FigureSpec[],
  onProgress?: (filers: number) => void,
): Promise<EsefIngestSummary> {
  const index = await loadEsefIndex(db);
  const counts: EsefReadCounts = { reports: 0, repeated_report: 0 };
  const filers = await readEsefFilers(paths, limits, [...conceptsOfAll(specs)], index, counts);
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
  const undated = filers.reduce((n, f) => n + undatedFacts(f), 0);
  if (undated > 0) skipped.undated_report = undated;
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
  return { filers: filerCount, reports: counts.reports, reports_without_figures: withoutFigures, ...rest, skipped, datasets };
}
