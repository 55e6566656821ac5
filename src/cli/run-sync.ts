import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import type { FigureSpec } from '../ingest/core/figure-spec.js';
import { ESEF_HOST, ESEF_REQUESTS_PER_SECOND, type EsefSyncSummary, syncEsef } from '../ingest/sources/esef/esef-sync.js';
import {
  SEC_HOSTS,
  SEC_REQUESTS_PER_SECOND,
  type SecFilers,
  type SecSyncSummary,
  syncSec,
} from '../ingest/sources/sec/sec-sync.js';
import { DEFAULT_RETRY_POLICY } from '../ingest/sync/retry-policy.js';
import { type SourceSyncOptions, withSyncRun } from '../ingest/sync/sync-run.js';

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

/**
 * A sync of one source with the settings of `config`: the run (lock, fetcher, download folder)
 * at the source's pace and as whom it asks, and what every source's sync is given.
 */
function runSync<T>(
  db: Kysely<Database>,
  config: Config,
  source: { userAgent: string; requestsPerSecond: number },
  options: { dryRun: boolean; specs: readonly FigureSpec[] },
  sync: (common: SourceSyncOptions) => Promise<T>,
): Promise<T> {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  return withSyncRun(
    db,
    {
      ...source,
      retry: { ...DEFAULT_RETRY_POLICY, baseMs: config.sync.retryBaseMs },
      maxBytes: config.ingest.maxJsonBytes,
      dryRun: options.dryRun,
      log,
    },
    ({ fetcher, workDir, lock }) =>
      sync({
        dryRun: options.dryRun,
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

/** `bin/corpdata sync sec` (DESIGN §15), with the settings of `config`. */
export function runSecSync(
  db: Kysely<Database>,
  config: Config,
  options: { filers: SecFilers; dryRun: boolean; refetch: boolean; specs: readonly FigureSpec[] },
): Promise<SecSyncSummary> {
  const base = config.sync.secBaseUrl;
  const source = { userAgent: checkSecUserAgent(config.sync.secUserAgent), requestsPerSecond: SEC_REQUESTS_PER_SECOND };
  return runSync(db, config, source, options, (common) =>
    syncSec(db, {
      ...common,
      filers: options.filers,
      refetch: options.refetch,
      bases: base === undefined ? SEC_HOSTS : { www: base, data: base },
    }),
  );
}

/** `bin/corpdata sync esef` (DESIGN §15), with the settings of `config`. */
export function runEsefSync(
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
  const source = { userAgent: config.sync.esefUserAgent, requestsPerSecond: ESEF_REQUESTS_PER_SECOND };
  return runSync(db, config, source, options, (common) =>
    syncEsef(db, {
      ...common,
      countries: options.countries,
      since: options.since,
      refetch: options.refetch,
      base: config.sync.esefBaseUrl ?? ESEF_HOST,
    }),
  );
}
