import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connect.js';

/**
 * Documents of a kind (design §1.4): a dataset's periods come only from processed documents of
 * its kind, so a sustainability report never makes a revenue period. A document that holds
 * emission figures and no revenue figure was a sustainability report; every other one a financial
 * report. Beside it, what a filed revenue figure's trace shows of how it was chosen (design
 * §10.3, §10.6): the other revenue concepts its filing tagged for the period, with their values,
 * and the later filings that repeated it rounded. Both are lists written as `key=value` pairs
 * separated by spaces (`us-gaap:Revenues=17997000000`, `{document_id}=9030000000`).
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('documents')
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('financial').check(sql`kind in ('financial', 'sustainability')`))
    .execute();
  await sql`update documents set kind = 'sustainability'
    where document_id in (select document_id from ghg_points)
      and document_id not in (select document_id from revenue_points)`.execute(db);
  await db.schema.alterTable('revenue_points').addColumn('candidates', 'text').execute();
  await db.schema.alterTable('revenue_points').addColumn('confirmed_by', 'text').execute();
}
