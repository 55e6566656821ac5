import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connect.js';

/**
 * Datasets (design §13): purchases keyed by dataset as well, so buying one dataset's figures of a
 * company-period does not make another's a repeat; a set of subscriptions per account; the
 * greenhouse-gas emission points. Purchases made before belong to `revenues`, and an account's
 * old single subscription becomes a set of one (or none).
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  // A primary key cannot be altered on SQLite: the table is rebuilt, then takes the old name.
  await db.schema
    .createTable('purchases_by_dataset')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.account_id'))
    .addColumn('dataset', 'text', (c) => c.notNull())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('reporting_period', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('purchases_dataset_pk', ['account_id', 'dataset', 'company_id', 'reporting_period'])
    .execute();
  await sql`insert into purchases_by_dataset (account_id, dataset, company_id, reporting_period, created_at)
    select account_id, 'revenues', company_id, reporting_period, created_at from purchases`.execute(db);
  await db.schema.dropTable('purchases').execute();
  await db.schema.alterTable('purchases_by_dataset').renameTo('purchases').execute();

  await db.schema
    .createTable('account_subscriptions')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.account_id'))
    .addColumn('subscription', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('account_subscriptions_pk', ['account_id', 'subscription'])
    .execute();
  await sql`insert into account_subscriptions (account_id, subscription)
    select account_id, 'revenues' from accounts where subscription = 'revenues'`.execute(db);

  await db.schema
    .createTable('ghg_points')
    .addColumn('point_id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.company_id'))
    .addColumn('document_id', 'text', (c) => c.notNull().references('documents.document_id'))
    .addColumn('reporting_period', 'integer', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull().check(sql`scope in ('1', '2-location', '2-market', '3')`))
    .addColumn('value', 'bigint', (c) => c.notNull())
    .addColumn('source_value', 'text', (c) => c.notNull())
    .addColumn('source_unit', 'text', (c) => c.notNull().check(sql`source_unit in ('t', 'kt', 'Mt')`))
    .addColumn('page', 'text')
    .execute();
  await db.schema.createIndex('ghg_points_company').on('ghg_points').columns(['company_id', 'reporting_period']).execute();
  await db.schema.createIndex('ghg_points_document').on('ghg_points').column('document_id').execute();
}
