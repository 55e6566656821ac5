import { mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import { SYSTEM_CLOCK } from '../ingest/sync/rate-gate.js';
import { DEFAULT_RETRY_POLICY } from '../ingest/sync/retry-policy.js';
import { SEC_HOSTS, SEC_REQUESTS_PER_SECOND, type SecFilers, type SecSyncSummary, syncSec } from '../ingest/sync/sec-sync.js';
import { SourceFetcher } from '../ingest/sync/source-fetcher.js';
import { acquireSyncLock, processRuns } from '../ingest/sync/sync-lock.js';

/** EX_TEMPFAIL (sysexits.h): another sync holds the database; try again later. */
export const SYNC_BUSY_EXIT = 75;

/** Another sync runs on the database: the CLI exits {@link SYNC_BUSY_EXIT}. */
export class SyncBusyError extends Error {}

/** A lease long enough for any one transaction of a batch; renewed every quarter of it. */
const LOCK_TTL_MS = 120_000;

/** One try of one request, headers and body (SEC's largest companyfacts file is about 50 MB). */
const REQUEST_TIMEOUT_MS = 300_000;

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
 * `bin/corpdata sync sec` (DESIGN §15): takes the database's sync lock (unless a dry run, which
 * writes nothing), fetches into a folder of its own, and always gives the lock and the folder back.
 */
export async function runSecSync(
  db: Kysely<Database>,
  config: Config,
  options: { filers: SecFilers; dryRun: boolean },
): Promise<SecSyncSummary> {
  const userAgent = checkSecUserAgent(config.sync.secUserAgent);
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const now = () => new Date();
  let lock = null;
  if (!options.dryRun) {
    const taken = await acquireSyncLock(db, {
      host: hostname(),
      pid: process.pid,
      ttlMs: LOCK_TTL_MS,
      now,
      isRunning: processRuns,
    });
    if ('holder' in taken) {
      const { host, pid, acquiredAt } = taken.holder;
      throw new SyncBusyError(
        `another sync runs on this database (process ${pid} on ${host}, since ${acquiredAt}); try again later`,
      );
    }
    lock = taken.lock;
  }
  const workDir = await mkdtemp(join(tmpdir(), 'corpdata-sync-'));
  try {
    const base = config.sync.secBaseUrl;
    return await syncSec(db, {
      filers: options.filers,
      dryRun: options.dryRun,
      bases: base === undefined ? SEC_HOSTS : { www: base, data: base },
      fetcher: new SourceFetcher({
        userAgent,
        requestsPerSecond: SEC_REQUESTS_PER_SECOND,
        retry: { ...DEFAULT_RETRY_POLICY, baseMs: config.sync.retryBaseMs },
        maxBytes: config.ingest.maxJsonBytes,
        timeoutMs: REQUEST_TIMEOUT_MS,
        clock: SYSTEM_CLOCK,
        random: Math.random,
        log,
      }),
      batchSize: config.sync.batchSize,
      limits: config.ingest,
      workDir,
      lock,
      now,
      log,
    });
  } finally {
    await rm(workDir, { recursive: true, force: true });
    await lock?.release();
  }
}
