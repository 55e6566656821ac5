import type { Kysely } from 'kysely';
import type { Dialect } from '../connect.js';

/**
 * A filing's main document (design §10): the primary HTML an SEC submissions file names for an
 * accession, linked from the trace page beside the filing index. Optional: only filings whose
 * submissions were ingested (or whose bundle row gives one) have it.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('documents').addColumn('main_document_url', 'text').execute();
}
