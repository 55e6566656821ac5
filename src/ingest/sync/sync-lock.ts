import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** The one lock every sync of a database takes, whatever its source: syncs write the same tables. */
const LOCK_NAME = 'sync';

/** A running sync's lease; renewed on a timer until released. */
export interface SyncLock {
  /** True once another sync took the lease over (this one's lapsed): stop writing. */
  readonly lost: boolean;
  release(): Promise<void>;
}

/** Who holds the lock, for the message of a sync that found it taken. */
export interface LockHolder {
  readonly host: string;
  readonly pid: number;
  readonly acquiredAt: string;
}

export interface LockOptions {
  readonly host: string;
  readonly pid: number;
  /** How long the lease lasts unless renewed; it is renewed every quarter of this. */
  readonly ttlMs: number;
  readonly now: () => Date;
  /** Whether a process of this host runs: a holder on this host that does not is gone for sure. */
  readonly isRunning: (pid: number) => boolean;
}

/**
 * True when a process of this id runs (or exists under another user). A zombie (a process that
 * ended but that its parent has not reaped yet: `Z` in /proc/PID/stat on Linux) still answers
 * signal 0, yet will never renew or release a lease: it does not run.
 */
export function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return !isZombie(pid);
}

/** Whether /proc says the process ended (zombie or dead); false where there is no /proc to ask. */
function isZombie(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return false;
  }
  // "PID (COMMAND) STATE …": the command may hold spaces and parentheses, so the state follows the last ')'.
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state === 'Z' || state === 'X';
}

/**
 * Takes the database's sync lock, or says who holds it. A lease in a table works alike on SQLite
 * and PostgreSQL and survives its holder: a sync killed with SIGKILL leaves its row behind, which
 * the next sync takes over once the lease has lapsed, or at once when the holder was a process of
 * this host that no longer runs (an SQLite database is on one host; so, usually, is a cron job).
 * Every change is a compare-and-set on the owner token, so two syncs racing for a lapsed lease
 * cannot both win.
 */
export async function acquireSyncLock(
  db: Kysely<Database>,
  options: LockOptions,
): Promise<{ lock: SyncLock } | { holder: LockHolder }> {
  const owner = randomBytes(16).toString('hex');
  const lease = () => {
    const now = options.now();
    return { acquired_at: now.toISOString(), expires_at: new Date(now.getTime() + options.ttlMs).toISOString() };
  };
  const holderOf = (row: { host: string; pid: number; acquired_at: string }): { holder: LockHolder } => ({
    holder: { host: row.host, pid: row.pid, acquiredAt: row.acquired_at },
  });
  // A few rounds: the holder may release between our insert and our read.
  for (let round = 0; ; round++) {
    await db
      .insertInto('sync_locks')
      .values({ name: LOCK_NAME, owner, host: options.host, pid: options.pid, ...lease() })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    const held = await db.selectFrom('sync_locks').selectAll().where('name', '=', LOCK_NAME).executeTakeFirst();
    if (held?.owner === owner) break;
    if (held === undefined) {
      if (round < 3) continue;
      throw new Error('the sync lock keeps changing hands; try again');
    }
    const lapsed = held.expires_at < options.now().toISOString();
    const gone = held.host === options.host && held.pid !== options.pid && !options.isRunning(held.pid);
    if (!lapsed && !gone) return holderOf(held);
    await db
      .updateTable('sync_locks')
      .set({ owner, host: options.host, pid: options.pid, ...lease() })
      .where('name', '=', LOCK_NAME)
      .where('owner', '=', held.owner)
      .execute();
    const after = await db.selectFrom('sync_locks').selectAll().where('name', '=', LOCK_NAME).executeTakeFirst();
    if (after?.owner === owner) break;
    if (after !== undefined) return holderOf(after);
    if (round >= 3) throw new Error('the sync lock keeps changing hands; try again');
  }
  let lost = false;
  const renew = async () => {
    const r = await db
      .updateTable('sync_locks')
      .set({ expires_at: lease().expires_at })
      .where('name', '=', LOCK_NAME)
      .where('owner', '=', owner)
      .executeTakeFirst();
    if (r.numUpdatedRows === 0n) lost = true;
  };
  const timer = setInterval(() => {
    renew().catch(() => {
      // A renewal that fails (the database briefly away) is tried again at the next tick; the
      // lease is four ticks long.
    });
  }, options.ttlMs / 4);
  timer.unref();
  return {
    lock: {
      get lost() {
        return lost;
      },
      release: async () => {
        clearInterval(timer);
        await db.deleteFrom('sync_locks').where('name', '=', LOCK_NAME).where('owner', '=', owner).execute();
      },
    },
  };
}
