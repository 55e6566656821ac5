import type { Kysely } from 'kysely';
import type { Dialect } from '../connect.js';

/**
 * What a figure's source shows of the fact on its trace page beyond the fields every source shares
 * (DESIGN §14.7, §15), as the source worded it at ingest: a JSON list of labelled fields (an ESEF
 * figure's LEI, fxo_id, fact id, unit, decimals and links). Null for SEC and bundle figures.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('revenue_points').addColumn('source_detail', 'text').execute();
}
