import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connect.js';

/**
 * A document is identified by its source and the source's key for it (design §15): an SEC filing
 * by `sec` and its accession number, an ESEF report by `esef` and its `fxo_id`, a bundle's document
 * by `bundle` and its document_id. `form` and `accession` stay for SEC filings (bundles carry them).
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('documents').addColumn('source', 'text').execute();
  await db.schema.alterTable('documents').addColumn('source_key', 'text').execute();
  await sql`update documents set source = case when accession is not null then 'sec' else 'bundle' end,
    source_key = coalesce(accession, document_id)`.execute(db);
  await db.schema.createIndex('documents_source_key').unique().on('documents').columns(['source', 'source_key']).execute();
}
