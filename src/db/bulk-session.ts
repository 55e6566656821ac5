import { type Kysely, PostgresAdapter, SqliteAdapter, sql } from 'kysely';

/** SQLite page cache of the main database during a bulk write: a constant, not the data's size. */
const BULK_CACHE_KIB = 128 * 1024;

/**
 * Runs `work` with this connection tuned for moving many rows, then puts the settings back.
 *
 * SQLite: a larger page cache. Applying a million-row import inserts into several indexes in
 * random key order at once; with the default 16 MiB cache their pages are evicted and read back
 * for almost every row (measured: 17 s instead of 10 s for the revenue points of a 1M-point
 * bundle, see docs/import-performance.md). It costs at most 128 MiB while it runs. Temporary
 * tables keep the default: written in order and read once, a larger cache only slowed them.
 *
 * PostgreSQL: no JIT. The bulk statements are estimated expensive, so each was JIT-compiled first
 * (0.3–0.5 s apiece, measured) to save nothing: they are bound by index and trigger work.
 */
export async function withBulkSession<DB, T>(db: Kysely<DB>, work: () => Promise<T>): Promise<T> {
  const adapter = db.getExecutor().adapter;
  if (adapter instanceof PostgresAdapter) {
    await sql`set jit = off`.execute(db);
    try {
      return await work();
    } finally {
      await sql`reset jit`.execute(db);
    }
  }
  if (!(adapter instanceof SqliteAdapter)) return work();
  const { rows } = await sql<{ cache_size: number }>`pragma main.cache_size`.execute(db);
  const before = Number(rows[0]?.cache_size ?? -16000);
  await sql`pragma main.cache_size = ${sql.raw(String(-BULK_CACHE_KIB))}`.execute(db);
  try {
    return await work();
  } finally {
    await sql`pragma main.cache_size = ${sql.raw(String(before))}`.execute(db);
  }
}
