import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import type { FigureSpec } from '../ingest/core/figure-spec.js';
import { ESEF_HOST, ESEF_REQUESTS_PER_SECOND, type EsefSyncSummary, syncEsef } from '../ingest/sync/esef-sync.js';
import { DEFAULT_RETRY_POLICY } from '../ingest/sync/retry-policy.js';
import { SEC_HOSTS, SEC_REQUESTS_PER_SECOND, type SecFilers, type SecSyncSummary, syncSec } from '../ingest/sync/sec-sync.js';
import { withSyncRun } from '../ingest/sync/sync-run.js';

export { SyncBusyError } from '../ingest/sync/sync-run.js';

/** EX_TEMPFAIL (sysexits.h): another sync holds the database; try again later. */
export const SYNC_BUSY_EXIT = 75;

/** SEC's fair-access policy: a User-Agent naming who asks, with a contact address. */
export function checkSecUserAgent(userAgent: string | undefined): string {
  if (userAgent === undefined || !/\S+@\S+\.\S+/.test(userAgent)) {
    throw new Error(
      `sync sec needs CORPDATA_SEC_USER_AGENT${userAgent === undefined ? '' : ' with a contact e-mail address'}, ` +
        'e.g. "Example Corp admin@example.com": SEC asks every client to name itself and a contact, and refuses those that do not',
    );
  }
  return userAgent;
}

/** `bin/corpdata sync sec` (DESIGN §15), with the settings of `config`. */
export async function runSecSync(
  db: Kysely<Database>,
  config: Config,
  options: { filers: SecFilers; dryRun: boolean; refetch: boolean; specs: readonly FigureSpec[] },
): Promise<SecSyncSummary> {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const base = config.sync.secBaseUrl;
  return withSyncRun(
    db,
    {
      userAgent: checkSecUserAgent(config.sync.secUserAgent),
      requestsPerSecond: SEC_REQUESTS_PER_SECOND,
      retry: { ...DEFAULT_RETRY_POLICY, baseMs: config.sync.retryBaseMs },
      maxBytes: config.ingest.maxJsonBytes,
      dryRun: options.dryRun,
      log,
    },
    ({ fetcher, workDir, lock }) =>
      syncSec(db, {
        filers: options.filers,
        dryRun: options.dryRun,
        refetch: options.refetch,
        bases: base === undefined ? SEC_HOSTS : { www: base, data: base },
        fetcher,
        batchSize: config.sync.batchSize,
        limits: config.ingest,
        specs: options.specs,
        workDir,
        lock,
        now: () => new Date(),
        log,
      }),
  );
}

/** `bin/corpdata sync esef` (DESIGN §15), with the settings of `config`. */
export async function runEsefSync(
  db: Kysely<Database>,
  config: Config,
  options: {
    countries: readonly string[] | null;
    since: string | null;
    dryRun: boolean;
    refetch: boolean;
    specs: readonly FigureSpec[];
  },
): Promise<EsefSyncSummary> {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  return withSyncRun(
    db,
    {
      userAgent: config.sync.esefUserAgent,
      requestsPerSecond: ESEF_REQUESTS_PER_SECOND,
      retry: { ...DEFAULT_RETRY_POLICY, baseMs: config.sync.retryBaseMs },
      maxBytes: config.ingest.maxJsonBytes,
      dryRun: options.dryRun,
      log,
    },
    ({ fetcher, workDir, lock }) =>
      syncEsef(db, {
        ...options,
        base: config.sync.esefBaseUrl ?? ESEF_HOST,
        fetcher,
        batchSize: config.sync.batchSize,
        limits: config.ingest,
        workDir,
        lock,
        now: () => new Date(),
        log,
      }),
  );
}
