import { readlinkSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { IngestLimits } from '../../config.js';
import type { Database } from '../../db/schema.js';
import type { FigureSpec } from '../core/figure-spec.js';
import { SYSTEM_CLOCK } from './rate-gate.js';
import type { RetryPolicy } from './retry-policy.js';
import { SourceFetcher } from './source-fetcher.js';
import { acquireSyncLock, processRuns, type SyncLock } from './sync-lock.js';

/** Another sync runs on the database: `bin/corpdata sync` exits 75 (EX_TEMPFAIL) with this message. */
export class SyncBusyError extends Error {}

/** A lease long enough for any one transaction of a batch; renewed every quarter of it. */
const LOCK_TTL_MS = 120_000;

/** One try of one request, headers and body (SEC's largest companyfacts file is about 50 MB). */
const REQUEST_TIMEOUT_MS = 300_000;

/**
 * This machine as the lock names it: the host name, and on Linux the process-id namespace, since
 * containers may share a host name while their process ids mean different things; a lock is
 * taken over at once only from a holder whose process ids are ours to check.
 */
export function lockHost(): string {
  try {
    return `${hostname()} ${readlinkSync('/proc/self/ns/pid')}`;
  } catch {
    return hostname();
  }
}

/** How a source is to be fetched from: who asks, how fast, how patiently, how much. */
export interface SyncRunOptions {
  readonly userAgent: string;
  readonly requestsPerSecond: number;
  readonly retry: RetryPolicy;
  readonly maxBytes: number;
  /** The source's configured bases: nothing is fetched off their origins, redirects included. */
  readonly bases: readonly string[];
  /** How long one file (all its tries) and the whole run may take at most. */
  readonly fileBudgetMs: number;
  readonly runBudgetMs: number;
  /** A dry run writes nothing, so it takes no lock. */
  readonly dryRun: boolean;
  readonly log: (line: string) => void;
}

/** What every source's sync is given: the run's fetcher, folder and lock, and how it ingests. */
export interface SourceSyncOptions {
  readonly dryRun: boolean;
  readonly fetcher: SourceFetcher;
  /** Filers (or reports) fetched before their files are ingested together and recorded as synced. */
  readonly batchSize: number;
  readonly limits: IngestLimits;
  /** The datasets filings fill, as for the source's `ingest` commands. */
  readonly specs: readonly FigureSpec[];
  /** A folder of this run's own for downloads; emptied batch by batch. */
  readonly workDir: string;
  /** Null on a dry run, which writes nothing and takes no lock. */
  readonly lock: SyncLock | null;
  readonly now: () => Date;
  readonly log: (line: string) => void;
}

/** What a source's sync gets from the run around it. */
export interface SyncRun {
  readonly fetcher: SourceFetcher;
  /** A folder of this run's own for downloads, removed when the run ends. */
  readonly workDir: string;
  /** Null on a dry run. */
  readonly lock: SyncLock | null;
}

/**
 * The frame of every `sync`, whatever the source (design §15): takes the database's sync lock
 * (or refuses with {@link SyncBusyError}), makes the fetcher and a download folder, runs the
 * source's sync, and gives the lock and the folder back however it ends.
 */
export async function withSyncRun<T>(
  db: Kysely<Database>,
  options: SyncRunOptions,
  sync: (run: SyncRun) => Promise<T>,
): Promise<T> {
  let lock: SyncLock | null = null;
  if (!options.dryRun) {
    const taken = await acquireSyncLock(db, {
      host: lockHost(),
      pid: process.pid,
      ttlMs: LOCK_TTL_MS,
      now: () => new Date(),
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
  try {
    const workDir = await mkdtemp(join(tmpdir(), 'corpdata-sync-'));
    try {
      const fetcher = new SourceFetcher({
        userAgent: options.userAgent,
        requestsPerSecond: options.requestsPerSecond,
        retry: options.retry,
        maxBytes: options.maxBytes,
        timeoutMs: REQUEST_TIMEOUT_MS,
        origins: [...new Set(options.bases.map((b) => new URL(b).origin))],
        fileBudgetMs: options.fileBudgetMs,
        runBudgetMs: options.runBudgetMs,
        clock: SYSTEM_CLOCK,
        random: Math.random,
        log: options.log,
      });
      return await sync({ fetcher, workDir, lock });
    } finally {
      await rm(workDir, { recursive: true, force: true });
    }
  } finally {
    await lock?.release();
  }
}
