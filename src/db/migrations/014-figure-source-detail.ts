import type { Kysely } from 'kysely';
import type { Dialect } from '../connect.js';

/**
 * What a figure's source shows of the fact on its trace page beyond the fields every source shares
 * (design §14.7, §15), as the source worded it at ingest: a JSON list of labelled fields (an ESEF
 * figure's LEI, fxo_id, fact id, unit, decimals and links). Null for SEC and bundle figures.
 * Added to every money figure table that lacks it (`revenue_points`, `net_income_points`; tables
 * created since by `createFigureTable` have it already).
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  const tables = await db.introspection.getTables();
  for (const t of tables) {
    const names = t.columns.map((c) => c.name);
    if (!names.includes('confirmed_by') || names.includes('source_detail')) continue;
    await db.schema.alterTable(t.name).addColumn('source_detail', 'text').execute();
  }
}
