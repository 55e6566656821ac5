import type { Kysely } from 'kysely';
import type { Dialect } from '../connect.js';

/**
 * What `sync` keeps between runs (design §15): each source file it fetched and ingested, with the
 * validators the source gave (ETag, Last-Modified) so that the next run asks only for what changed,
 * and the one lock that keeps two syncs of a database from running at once. A lock is a lease: its
 * holder renews it while it runs, so one left by a killed process lapses on its own.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('sync_files')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('file_key', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('etag', 'text')
    .addColumn('last_modified', 'text')
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .addColumn('fetched_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('sync_files_pk', ['source', 'file_key'])
    .execute();
  await db.schema
    .createTable('sync_locks')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('pid', 'integer', (c) => c.notNull())
    .addColumn('acquired_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
}
