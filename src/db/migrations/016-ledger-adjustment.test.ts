import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { dialects } from '../../../test/support/dialects.js';
import { freshDatabase } from '../../../test/support/test-database.js';
import * as ledgerAdjustment from './016-ledger-adjustment.js';

describe.each(dialects())('migration 016-ledger-adjustment (%s)', (dialect) => {
  const t = freshDatabase(dialect, { migrated: true });

  it('admits adjustment lines, keeps every entry with its number and detail, and still refuses what it refused', async () => {
    const k = t.db.kysely;
    const at = '2026-01-01T00:00:00.000Z';
    await k
      .insertInto('accounts')
      .values({
        account_id: 'm16',
        email: 'm16@example.com',
        balance: 7,
        subscription: 'revenues',
        password_hash: null,
        created_at: at,
      })
      .execute();
    const entry = (amount: number, balanceAfter: number, kind: string, detail: string | null) => ({
      account_id: 'm16',
      amount,
      balance_after: balanceAfter,
      kind,
      endpoint: kind === 'charge' ? 'companies/search' : null,
      key_id: null,
      company_id: null,
      reporting_period: null,
      request_id: null,
      created_at: at,
      detail,
    });
    await k
      .insertInto('ledger')
      .values([entry(10, 10, 'grant', null), entry(-1, 9, 'charge', 'beta'), entry(-2, 7, 'adjustment', 'typo')] as never)
      .execute();
    const before = await k.selectFrom('ledger').selectAll().where('account_id', '=', 'm16').orderBy('entry_id').execute();
    expect(before.map((l) => l.kind)).toEqual(['grant', 'charge', 'adjustment']);

    // Applied again to a ledger in use (SQLite rebuilds the table), it keeps every line as it was.
    await ledgerAdjustment.up(k as never, dialect);
    expect(await k.selectFrom('ledger').selectAll().where('account_id', '=', 'm16').orderBy('entry_id').execute()).toEqual(
      before,
    );
    await k
      .insertInto('ledger')
      .values(entry(1, 8, 'adjustment', 'goodwill') as never)
      .execute();
    const ids = (
      await k.selectFrom('ledger').select('entry_id').where('account_id', '=', 'm16').orderBy('entry_id').execute()
    ).map((r) => Number(r.entry_id));
    expect(ids[3]).toBeGreaterThan(ids[2] ?? Number.POSITIVE_INFINITY);
    await expect(
      k
        .insertInto('ledger')
        .values(entry(1, 9, 'bonus', null) as never)
        .execute(),
    ).rejects.toThrow();
    await expect(
      k
        .insertInto('ledger')
        .values(entry(-9, -1, 'adjustment', 'x') as never)
        .execute(),
    ).rejects.toThrow();
    const indexes =
      dialect === 'postgres'
        ? sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'ledger'`
        : sql<{ name: string }>`select name from sqlite_master where tbl_name = 'ledger' and type = 'index'`;
    expect((await indexes.execute(k)).rows.map((r) => r.name)).toContain('ledger_account');
  });
});
