import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connect.js';

/**
 * Freshness (design §20.2): when each document's figures began to be served (`documents.served_at`),
 * and each source's last polls (`source_polls`). The documents already served when this runs were
 * served before it was recorded: their `served_at` is empty, so that no later write takes them for
 * new and no lag is made up for them.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('documents').addColumn('served_at', 'text').execute();
  await sql`update documents set served_at = '' where status = 'processed'`.execute(db);
  await db.schema.createIndex('documents_served').on('documents').column('served_at').execute();
  await db.schema
    .createTable('source_polls')
    .addColumn('source', 'text', (c) => c.primaryKey())
    .addColumn('last_success_at', 'text')
    .addColumn('last_error_at', 'text')
    .addColumn('last_error', 'text')
    .execute();
}
