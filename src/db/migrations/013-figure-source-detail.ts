import type { Kysely } from 'kysely';
import type { Dialect } from '../connect.js';

/**
 * What a figure's source tells of the fact beyond the fields every source shares (DESIGN §14.7,
 * §15): an ESEF figure's fact id and decimals, as a JSON object the source's trace fields read.
 * Null for SEC figures (their accession and form are the document's) and for bundle figures.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('revenue_points').addColumn('source_detail', 'text').execute();
}
