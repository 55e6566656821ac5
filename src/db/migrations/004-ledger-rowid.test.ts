import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { dialects } from '../../../test/support/dialects.js';
import { freshDatabase } from '../../../test/support/test-database.js';
import * as initial from './001-initial.js';
import * as ledgerRowid from './004-ledger-rowid.js';

describe.each(dialects())('migration 004-ledger-rowid on a database in use (%s)', (dialect) => {
  const t = freshDatabase(dialect);

  it('keeps every entry with its number, and numbers new entries after them', async () => {
    const k = t.db.kysely;
    await initial.up(k as never, dialect);
    const at = '2025-01-01T00:00:00.000Z';
    await k
      .insertInto('accounts')
      .values({
        account_id: 'a1',
        email: 'a1@example.com',
        balance: 7,
        subscription: 'revenues',
        password_hash: null,
        created_at: at,
      } as never)
      .execute();
    const entry = (amount: number, balanceAfter: number) => ({
      account_id: 'a1',
      amount,
      balance_after: balanceAfter,
      kind: amount > 0 ? 'grant' : 'charge',
      endpoint: amount > 0 ? null : 'revenues',
      key_id: null,
      company_id: null,
      reporting_period: null,
      request_id: null,
      created_at: at,
    });
    await k
      .insertInto('ledger')
      .values([entry(10, 10), entry(-2, 8), entry(-1, 7)] as never)
      .execute();
    const before = await k.selectFrom('ledger').selectAll().orderBy('entry_id').execute();

    await ledgerRowid.up(k as never, dialect);

    expect(await k.selectFrom('ledger').selectAll().orderBy('entry_id').execute()).toEqual(before);
    await k
      .insertInto('ledger')
      .values(entry(-3, 4) as never)
      .execute();
    const ids = (await k.selectFrom('ledger').select('entry_id').orderBy('entry_id').execute()).map((r) => Number(r.entry_id));
    expect(ids).toHaveLength(4);
    expect(ids[3]).toBeGreaterThan(ids[2] ?? Number.POSITIVE_INFINITY);
    // The account's entries are still read in order through the index.
    const indexes =
      dialect === 'postgres'
        ? sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'ledger'`
        : sql<{ name: string }>`select name from sqlite_master where tbl_name = 'ledger' and type = 'index'`;
    expect((await indexes.execute(k)).rows.map((r) => r.name)).toContain('ledger_account');
    // The check constraints came along: a negative balance is refused.
    await expect(
      k
        .insertInto('ledger')
        .values(entry(-5, -1) as never)
        .execute(),
    ).rejects.toThrow();
    if (dialect === 'sqlite') {
      const { rows: table } = await sql<{ sql: string }>`select sql from sqlite_master where name = 'ledger'`.execute(k);
      expect(table[0]?.sql.toLowerCase()).not.toContain('autoincrement');
    }
  });
});
