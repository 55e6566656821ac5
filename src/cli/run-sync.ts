import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import type { FigureSpec } from '../ingest/core/figure-spec.js';
import type { SyncJob } from '../ingest/sources/source.js';
import { DEFAULT_RETRY_POLICY } from '../ingest/sync/retry-policy.js';
import { withSyncRun } from '../ingest/sync/sync-run.js';

export { SyncBusyError } from '../ingest/sync/sync-run.js';

/** EX_TEMPFAIL (sysexits.h): another sync holds the database; try again later. */
export const SYNC_BUSY_EXIT = 75;

/**
 * `bin/corpdata sync NAME` (DESIGN §15): the source's sync `job` run with the settings of `config`,
 * inside the frame every source shares (lock, fetcher, download folder) at the source's pace and as
 * whom it asks.
 */
export function runSync(db: Kysely<Database>, config: Config, job: SyncJob, specs: readonly FigureSpec[]): Promise<object> {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  return withSyncRun(
    db,
    {
      userAgent: job.userAgent,
      requestsPerSecond: job.requestsPerSecond,
      retry: { ...DEFAULT_RETRY_POLICY, baseMs: config.sync.retryBaseMs },
      maxBytes: config.ingest.maxJsonBytes,
      dryRun: job.dryRun,
      log,
    },
    ({ fetcher, workDir, lock }) =>
      job.run(db, {
        dryRun: job.dryRun,
        fetcher,
        batchSize: config.sync.batchSize,
        limits: config.ingest,
        specs,
        workDir,
        lock,
        now: () => new Date(),
        log,
      }),
  );
}
