import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connect.js';

/**
 * A third kind of ledger line, `adjustment`: an operator's correction of a balance
 * (`bin/corpdata credits adjust`), negative or positive, its reason kept in `detail`. The kind is
 * checked by a column constraint; PostgreSQL replaces it. SQLite cannot alter a constraint: the
 * table is rebuilt with its entries and numbers (rowid key of 004, `detail` of 009), then takes the
 * old name, as 004 did.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') {
    await sql`alter table ledger drop constraint if exists ledger_kind_check`.execute(db);
    await sql`alter table ledger add constraint ledger_kind_check check (kind in ('grant', 'charge', 'adjustment'))`.execute(db);
    return;
  }
  await db.schema
    .createTable('ledger_with_adjustment')
    .addColumn('entry_id', 'integer', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.account_id'))
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('balance_after', 'bigint', (c) => c.notNull().check(sql`balance_after >= 0`))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('grant', 'charge', 'adjustment')`))
    .addColumn('endpoint', 'text')
    .addColumn('key_id', 'text')
    .addColumn('company_id', 'text')
    .addColumn('reporting_period', 'integer')
    .addColumn('request_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('detail', 'text')
    .execute();
  await sql`insert into ledger_with_adjustment (entry_id, account_id, amount, balance_after, kind, endpoint, key_id,
    company_id, reporting_period, request_id, created_at, detail)
    select entry_id, account_id, amount, balance_after, kind, endpoint, key_id, company_id, reporting_period, request_id,
    created_at, detail from ledger`.execute(db);
  await db.schema.dropTable('ledger').execute();
  await db.schema.alterTable('ledger_with_adjustment').renameTo('ledger').execute();
  await db.schema.createIndex('ledger_account').on('ledger').columns(['account_id', 'entry_id']).execute();
}
