import type { Kysely } from 'kysely';
import type { Dialect } from '../connect.js';
import { createFigureTable } from '../figure-table.js';

/** Net income's figures (design §17), in a table with the columns of every money figure table. */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await createFigureTable(db, 'net_income_points');
}
