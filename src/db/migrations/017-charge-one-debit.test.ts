import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../../../test/support/dialects.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import { chargeParams } from '../../credits/charge-function.js';
import type { ChargeRequest } from '../../credits/charge-request.js';
import { connect, type Db } from '../connect.js';
import { numbered } from '../fixed-transaction.js';
import { migrate } from '../migrate.js';

const AT = '2026-01-01T00:00:00.000Z';
const CALL =
  'select outcome, cost, balance from charge_batch(?::text[], ?::text[], ?::text[], ?::bigint[], ?::text[], ?::text[], ' +
  '?::integer[], ?::bigint[], ?::text[], ?::integer[], ?::text[], ?::text[], ?::boolean[], ?::integer[], ?::integer[], ?::text[], ?::text[])';

function call(accountId: string, price: number, n: number): ChargeRequest {
  return { accountId, keyId: null, endpoint: 'GET /api/v1/revenues', price, requestId: `${accountId}-${n}`, at: AT };
}

// Only PostgreSQL has the server-side function.
describe.each(dialects().filter((d) => d === 'postgres'))('migration 017-charge-one-debit (%s)', (dialect) => {
  let database: TestDatabase;
  let db: Extract<Db, { dialect: 'postgres' }>;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    const opened = connect(database.config);
    if (opened.dialect !== 'postgres') throw new Error('expected PostgreSQL');
    db = opened;
    await migrate(db);
    for (const [id, balance] of [
      ['rich', 1000],
      ['short', 30],
    ] as const)
      await db.kysely
        .insertInto('accounts')
        .values({
          account_id: id,
          email: `${id}@example.com`,
          balance,
          subscription: 'revenues',
          password_hash: null,
          created_at: AT,
        })
        .execute();
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  /** Runs one batch in a transaction rolled back: its outcomes, and the rows of `accounts` it updated. */
  async function batch(requests: ChargeRequest[]): Promise<{ outcomes: unknown[]; updates: number }> {
    const client = await db.pool.connect();
    // The counts of the session not yet reported, this transaction's included: read before and after.
    const updated = async () =>
      Number(
        (await client.query<{ n: string }>("select n_tup_upd as n from pg_stat_xact_user_tables where relname = 'accounts'"))
          .rows[0]?.n,
      );
    try {
      await client.query('begin');
      const before = await updated();
      const { rows } = await client.query(numbered(CALL), chargeParams(requests));
      const updates = (await updated()) - before;
      await client.query('rollback');
      return { outcomes: rows.map((r) => [r.outcome, Number(r.cost), Number(r.balance)]), updates };
    } finally {
      client.release();
    }
  }

  it('debits an account whose calls are all affordable with one update, balances counted down in arrival order', async () => {
    const { outcomes, updates } = await batch([call('rich', 10, 1), call('rich', 25, 2), call('rich', 1, 3)]);
    expect(outcomes).toEqual([
      [1, 10, 990],
      [1, 25, 965],
      [1, 1, 964],
    ]);
    expect(updates).toBe(1);
  });

  it('locks and prices one by one when not all are affordable: the refused call leaves the balance as it was', async () => {
    const { outcomes, updates } = await batch([call('short', 25, 1), call('short', 10, 2), call('short', 5, 3)]);
    expect(outcomes).toEqual([
      [1, 25, 5],
      [0, 10, 5],
      [1, 5, 0],
    ]);
    // The lock (a no-op update) and the debit.
    expect(updates).toBe(2);
  });
});
