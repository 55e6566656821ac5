import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connect.js';

/**
 * The SQLite ledger numbers its entries by rowid instead of AUTOINCREMENT. AUTOINCREMENT only adds
 * a guarantee for deleted rows (their numbers are never reused), and ledger entries are never
 * deleted; it costs a write to `sqlite_sequence` for every entry, one per billed call. A table's
 * key cannot be altered on SQLite: the table is rebuilt with its entries and numbers, then takes
 * the old name. PostgreSQL's ledger (bigserial) is unchanged.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'sqlite') return;
  await db.schema
    .createTable('ledger_by_rowid')
    .addColumn('entry_id', 'integer', (c) => c.primaryKey())
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
  await sql`insert into ledger_by_rowid (entry_id, account_id, amount, balance_after, kind, endpoint, key_id, company_id,
    reporting_period, request_id, created_at)
    select entry_id, account_id, amount, balance_after, kind, endpoint, key_id, company_id, reporting_period, request_id,
    created_at from ledger`.execute(db);
  await db.schema.dropTable('ledger').execute();
  await db.schema.alterTable('ledger_by_rowid').renameTo('ledger').execute();
  await db.schema.createIndex('ledger_account').on('ledger').columns(['account_id', 'entry_id']).execute();
}
