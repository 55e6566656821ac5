import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connect.js';

/** The first schema: catalog, revenue data, accounts, keys, ledger, purchases, console sessions. */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('versions')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('settings')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('companies')
    .addColumn('company_id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('country', 'text')
    .addColumn('lei', 'text', (c) => c.unique())
    .execute();
  await db.schema
    .createTable('listings')
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.company_id'))
    .addColumn('ticker', 'text', (c) => c.notNull())
    .addColumn('mic_code', 'text', (c) => c.notNull())
    .addColumn('isin', 'text', (c) => c.unique())
    .addColumn('is_primary', 'integer', (c) => c.notNull())
    .addColumn('added_seq', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('listings_pk', ['mic_code', 'ticker'])
    .execute();
  await db.schema.createIndex('listings_company').on('listings').column('company_id').execute();

  await db.schema
    .createTable('documents')
    .addColumn('document_id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.company_id'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('source_url', 'text', (c) => c.notNull())
    .addColumn('published_on', 'text', (c) => c.notNull())
    .addColumn('reporting_period', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'processed', 'failed')`))
    .execute();
  await db.schema.createIndex('documents_company').on('documents').columns(['company_id', 'reporting_period']).execute();

  await db.schema
    .createTable('fx_rates')
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('usd_per_unit', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('fx_rates_pk', ['currency', 'year'])
    .execute();

  await db.schema
    .createTable('revenue_points')
    .addColumn('point_id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.company_id'))
    .addColumn('document_id', 'text', (c) => c.notNull().references('documents.document_id'))
    .addColumn('reporting_period', 'integer', (c) => c.notNull())
    .addColumn('original_value', 'bigint')
    .addColumn('original_ccy', 'text', (c) => c.notNull())
    .addColumn('value_usd', 'bigint', (c) => c.notNull())
    .addColumn('fx_rate', 'text', (c) => c.notNull())
    .addColumn('fx_source', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('revenue_points_company')
    .on('revenue_points')
    .columns(['company_id', 'reporting_period'])
    .execute();
  await db.schema.createIndex('revenue_points_document').on('revenue_points').column('document_id').execute();

  await db.schema
    .createTable('accounts')
    .addColumn('account_id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('balance', 'bigint', (c) => c.notNull().check(sql`balance >= 0`))
    .addColumn('subscription', 'text', (c) => c.notNull().check(sql`subscription in ('revenues', 'none')`))
    .addColumn('password_hash', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema.createIndex('accounts_email').unique().on('accounts').expression(sql`lower(email)`).execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('key_id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.account_id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('display_prefix', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('last_used_at', 'text')
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('api_keys_account').on('api_keys').column('account_id').execute();

  await db.schema
    .createTable('ledger')
    .addColumn('entry_id', dialect === 'postgres' ? 'bigserial' : 'integer', (c) =>
      dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.account_id'))
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('balance_after', 'bigint', (c) => c.notNull().check(sql`balance_after >= 0`))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('grant', 'charge')`))
    .addColumn('endpoint', 'text')
    .addColumn('key_id', 'text')
    .addColumn('company_id', 'text')
    .addColumn('reporting_period', 'integer')
    .addColumn('request_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ledger_account').on('ledger').columns(['account_id', 'entry_id']).execute();

  await db.schema
    .createTable('purchases')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.account_id'))
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('reporting_period', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('purchases_pk', ['account_id', 'company_id', 'reporting_period'])
    .execute();

  await db.schema
    .createTable('console_sessions')
    .addColumn('session_id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.account_id'))
    .addColumn('csrf_token', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();

  await db
    .insertInto('versions' as never)
    .values([
      { name: 'data', version: 1 },
      { name: 'auth', version: 1 },
    ] as never)
    .execute();
}
