import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import { recordPoll } from '../freshness/source-polls.js';
import type { FigureSpec } from '../ingest/core/figure-spec.js';
import type { SyncJob, SyncSummary } from '../ingest/sources/source.js';
import { DEFAULT_RETRY_POLICY } from '../ingest/sync/retry-policy.js';
import type { FetchCounts } from '../ingest/sync/source-fetcher.js';
import { withSyncRun } from '../ingest/sync/sync-run.js';

export { SyncBusyError } from '../ingest/sync/sync-run.js';

/** EX_TEMPFAIL (sysexits.h): another sync holds the database; try again later. */
export const SYNC_BUSY_EXIT = 75;

/** EX_UNAVAILABLE (sysexits.h): the source answered no request of the sync (unreachable, or refusing all). */
export const SYNC_UNAVAILABLE_EXIT = 69;

/**
 * Why a finished sync is a failure for whoever scheduled it, or null: nothing came back from the
 * source (no file, no 304, no 404) while every request failed, so a sync with no network does not
 * pass for one that found nothing new.
 */
export function syncFailure(requests: FetchCounts): string | null {
  const answered = requests.downloaded + requests.changed + requests.not_modified + requests.not_found;
  const failed = requests.given_up + requests.refused + requests.redirects_refused + requests.over_budget;
  if (answered > 0 || failed === 0) return null;
  return `sync: every request failed (${failed}) and nothing was fetched: is the source reachable?`;
}

/**
 * `bin/corpdata sync NAME` (design §15): the source's sync `job` run with the settings of `config`,
 * inside the frame every source shares (lock, fetcher, download folder) at the source's pace and as
 * whom it asks. Its end is the source's last poll (design §20.2): a success, or the failure that
 * ended it; a dry run, which writes nothing, records neither.
 */
export function runSync(
  db: Kysely<Database>,
  config: Config,
  source: string,
  job: SyncJob,
  specs: readonly FigureSpec[],
): Promise<SyncSummary> {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  return withSyncRun(
    db,
    {
      userAgent: job.userAgent,
      requestsPerSecond: job.requestsPerSecond,
      bases: job.bases,
      retry: { ...DEFAULT_RETRY_POLICY, baseMs: config.sync.retryBaseMs },
      maxBytes: config.ingest.maxJsonBytes,
      fileBudgetMs: config.sync.fileBudgetMs,
      runBudgetMs: config.sync.runBudgetMs,
      dryRun: job.dryRun,
      log,
    },
    async ({ fetcher, workDir, lock }) => {
      const poll = job.run(db, {
        dryRun: job.dryRun,
        fetcher,
        batchSize: config.sync.batchSize,
        limits: config.ingest,
        specs,
        workDir,
        lock,
        now: () => new Date(),
        log,
      });
      if (job.dryRun) return poll;
      try {
        const summary = await poll;
        await recordPoll(db, source, new Date(), syncFailure(summary.requests));
        return summary;
      } catch (error) {
        // The failure is what the operator is told; a database too broken to record it says so itself.
        await recordPoll(db, source, new Date(), error instanceof Error ? error.message : String(error)).catch(() => undefined);
        throw error;
      }
    },
  );
}
