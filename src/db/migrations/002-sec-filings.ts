import type { Kysely } from 'kysely';
import type { Dialect } from '../connect.js';

/**
 * Filed figures (design §10): a company's SEC CIK, the form and accession number of a filing,
 * and the XBRL concept and period each figure was read from, so its trace page can show how it
 * was chosen. All optional: bundle figures have none of them.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('companies').addColumn('cik', 'text').execute();
  await db.schema.createIndex('companies_cik').unique().on('companies').column('cik').execute();
  await db.schema.alterTable('documents').addColumn('form', 'text').execute();
  await db.schema.alterTable('documents').addColumn('accession', 'text').execute();
  await db.schema.createIndex('documents_accession').unique().on('documents').column('accession').execute();
  await db.schema.alterTable('revenue_points').addColumn('concept', 'text').execute();
  await db.schema.alterTable('revenue_points').addColumn('period_start', 'text').execute();
  await db.schema.alterTable('revenue_points').addColumn('period_end', 'text').execute();
}
