import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.js';

/**
 * `data` changes with every import, `auth` with every revocation or account change. Writers bump
 * them in their own transaction; every instance polls them to drop what it has cached.
 */
export type VersionName = 'data' | 'auth';

export async function bumpVersion(db: Kysely<Database>, name: VersionName): Promise<void> {
  await db.updateTable('versions').set({ version: sql`version + 1` }).where('name', '=', name).execute();
}

export type Versions = Readonly<Record<VersionName, number>>;

export async function readVersions(db: Kysely<Database>): Promise<Versions> {
  const rows = await db.selectFrom('versions').select(['name', 'version']).execute();
  const get = (name: VersionName) => Number(rows.find((r) => r.name === name)?.version ?? 0);
  return { data: get('data'), auth: get('auth') };
}

/**
 * Polls the version counters and tells listeners when one moved. One tiny query per interval per
 * instance is what lets caches be kept without ever serving a revoked key for long.
 */
export class VersionWatcher {
  #timer: NodeJS.Timeout | undefined;
  #current: Versions | undefined;
  #listeners: Array<(name: VersionName) => void> = [];

  constructor(
    private readonly db: Kysely<Database>,
    private readonly intervalMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  onChange(listener: (name: VersionName) => void): void {
    this.#listeners.push(listener);
  }

  /** Reads the counters now; notifies listeners of any that moved since the last read. */
  async check(): Promise<void> {
    const next = await readVersions(this.db);
    const previous = this.#current;
    this.#current = next;
    if (previous === undefined) return;
    for (const name of ['data', 'auth'] as const) {
      if (previous[name] !== next[name]) for (const l of this.#listeners) l(name);
    }
  }

  async start(): Promise<void> {
    await this.check();
    const tick = () => {
      this.check()
        .catch(this.onError)
        .finally(() => {
          if (this.#timer !== undefined) this.#timer = setTimeout(tick, this.intervalMs).unref();
        });
    };
    this.#timer = setTimeout(tick, this.intervalMs).unref();
  }

  stop(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
