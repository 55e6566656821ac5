import type { Kysely } from 'kysely';
import type { IngestLimits } from '../config.js';
import type { Database } from '../db/schema.js';
import { conceptsOfAll, type FigureSpec } from '../ingest/core/figure-spec.js';
import { ingestEsef } from '../ingest/esef/ingest-esef.js';
import { ingestEsefIndex } from '../ingest/esef/ingest-index.js';
import { ingestFilings } from '../ingest/filings/ingest-filings.js';
import { readCompanyFacts } from '../ingest/sec-companyfacts/read-companyfacts.js';
import { secSource } from '../ingest/sec-filings/sec-source.js';
import { readDataSets } from '../ingest/sec-fsds/read-fsds.js';
import { ingestSubmissions } from '../ingest/sec-submissions/ingest-submissions.js';
import { ingestTickers } from '../ingest/sec-tickers/ingest-tickers.js';

/** Quiet runs stay quiet: progress starts after this long, then comes at this interval. */
const PROGRESS_AFTER_MS = 2_000;

/** A progress line on stderr every couple of seconds once a run has taken that long. */
function progress(source: string, what = 'filers'): (n: number) => void {
  const started = Date.now();
  let next = started + PROGRESS_AFTER_MS;
  return (n) => {
    const now = Date.now();
    if (now < next) return;
    next = now + PROGRESS_AFTER_MS;
    const rss = Math.round(process.memoryUsage().rss / 1024 / 1024);
    process.stderr.write(`${source}: ${n} ${what} read in ${Math.round((now - started) / 1000)} s (${rss} MiB)\n`);
  };
}

export type IngestSource = 'sec-tickers' | 'sec-companyfacts' | 'sec-fsds' | 'sec-submissions' | 'esef-index' | 'esef';

/**
 * Runs one `ingest` source over its paths (DESIGN §10, §14), reading no input past `limits`;
 * filings fill every dataset of `specs`.
 */
export async function runIngest(
  db: Kysely<Database>,
  source: IngestSource,
  paths: string[],
  limits: IngestLimits,
  specs: readonly FigureSpec[],
): Promise<object> {
  const label = paths.join(' ');
  switch (source) {
    case 'sec-tickers': {
      if (paths.length !== 1) throw new Error('ingest sec-tickers takes exactly one FILE');
      return ingestTickers(db, paths[0] as string, limits);
    }
    case 'sec-companyfacts':
      return ingestFilings(db, label, secSource, specs, readCompanyFacts(paths, conceptsOfAll(specs), limits), {
        onProgress: progress(source),
      });
    case 'sec-fsds':
      return ingestFilings(db, label, secSource, specs, readDataSets(paths, conceptsOfAll(specs), limits), {
        onProgress: progress(source),
      });
    case 'sec-submissions':
      return ingestSubmissions(db, paths, limits, progress(source));
    case 'esef':
      return ingestEsef(db, paths, limits, specs, progress(source));
    case 'esef-index':
      return ingestEsefIndex(db, paths, limits, progress(source, 'pages'));
  }
}
