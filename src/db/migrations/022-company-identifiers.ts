import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connect.js';

/**
 * Merges (design §19.4): the identifiers a company holds beyond its own row, `company_identifiers`
 * — a former `company_id` merged into it, a CIK or an LEI that came with a merged company — each
 * finding that company wherever an identifier is taken; and `events.merged_company_id`, the former
 * id a `company.merged` event tells of.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('company_identifiers')
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('company_id', 'cik', 'lei')`))
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.company_id'))
    .addPrimaryKeyConstraint('company_identifiers_pk', ['kind', 'value'])
    .execute();
  await db.schema.createIndex('company_identifiers_company').on('company_identifiers').column('company_id').execute();
  await db.schema.alterTable('events').addColumn('merged_company_id', 'text').execute();
}
