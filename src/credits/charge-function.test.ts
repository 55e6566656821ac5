import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../../test/support/dialects.js';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database.js';
import { connect, type Db } from '../db/connect.js';
import { fixedTransaction } from '../db/fixed-transaction.js';
import { migrate } from '../db/migrate.js';
import type { ChargeRequest } from './charge.js';
import { chargeBatch } from './charge-batch.js';
import { chargeFunction } from './charge-function.js';

/** One call of a generated batch: which account (and its key) it bills, and what it buys. */
interface Call {
  account: number;
  kind: 'buy' | 'flat' | 'subject';
  dataset: string;
  company: number;
  period: number;
  price: number;
  withKey: boolean;
  touchKey: boolean;
}

const callArb: fc.Arbitrary<Call> = fc.record({
  account: fc.integer({ min: 0, max: 2 }),
  kind: fc.constantFrom('buy' as const, 'flat' as const, 'subject' as const),
  dataset: fc.constantFrom('revenues', 'ghg-emissions'),
  company: fc.integer({ min: 0, max: 2 }),
  period: fc.integer({ min: 2022, max: 2023 }),
  price: fc.constantFrom(0, 1, 25, 100),
  withKey: fc.boolean(),
  touchKey: fc.boolean(),
});

const AT = '2026-01-01T00:00:00.000Z';

// Only PostgreSQL has the server-side function; SQLite runs the statements of charge-batch.ts.
describe.each(dialects().filter((d) => d === 'postgres'))('charge_batch, the server-side batch (%s)', (dialect) => {
  let database: TestDatabase;
  let db: Extract<Db, { dialect: 'postgres' }>;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    const opened = connect(database.config);
    if (opened.dialect !== 'postgres') throw new Error('expected PostgreSQL');
    db = opened;
    await migrate(db);
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  /** Three accounts named `${tag}-0..2`, each with a key `${tag}-k0..2`, and purchases made before. */
  async function accounts(tag: string, openings: number[], bought: Call[]): Promise<void> {
    const k = db.kysely;
    for (const [i, balance] of openings.entries()) {
      const values = { account_id: `${tag}-${i}`, email: `${tag}-${i}@example.com`, balance, subscription: 'revenues' as const };
      await k
        .insertInto('accounts')
        .values({ ...values, password_hash: null, created_at: AT })
        .execute();
      await k
        .insertInto('api_keys')
        .values({
          key_id: `${tag}-k${i}`,
          account_id: `${tag}-${i}`,
          name: 'k',
          display_prefix: 'k',
          created_at: AT,
          expires_at: null,
          last_used_at: null,
          revoked_at: null,
        })
        .execute();
    }
    for (const b of bought) {
      await k
        .insertInto('purchases')
        .values({
          account_id: `${tag}-${b.account}`,
          dataset: b.dataset,
          company_id: `c${b.company}`,
          reporting_period: b.period,
          created_at: AT,
        })
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
  }

  function requests(tag: string, calls: Call[]): ChargeRequest[] {
    return calls.map((c, i) => ({
      accountId: `${tag}-${c.account}`,
      keyId: c.withKey ? `${tag}-k${c.account}` : null,
      endpoint: c.kind === 'flat' ? 'search' : c.dataset,
      price: c.kind === 'buy' ? 25 : c.price,
      ...(c.kind === 'buy'
        ? { purchase: { dataset: c.dataset, companyId: `c${c.company}`, period: c.period, repeatPrice: 1 } }
        : {}),
      ...(c.kind === 'subject' ? { subject: { companyId: `c${c.company}`, period: c.period } } : {}),
      requestId: `r${i}`,
      at: `2026-01-01T00:00:${String(i % 60).padStart(2, '0')}.000Z`,
      touchKey: c.touchKey,
    }));
  }

  /** What a batch left behind for the accounts of `tag`, with the tag taken out of every id. */
  async function state(tag: string) {
    const untag = (id: string | null) => (id === null ? null : id.slice(tag.length));
    const like = `${tag}-%`;
    const { rows: ledger } = await sql<Record<string, unknown>>`select account_id, amount, balance_after, kind, endpoint, key_id,
      company_id, reporting_period, request_id, created_at from ledger where account_id like ${like} order by entry_id`.execute(
      db.kysely,
    );
    const { rows: purchases } = await sql<Record<string, unknown>>`select account_id, dataset, company_id, reporting_period
      from purchases where account_id like ${like} order by 1, 2, 3, 4`.execute(db.kysely);
    const { rows: balances } = await sql<Record<string, unknown>>`select account_id, balance from accounts
      where account_id like ${like} order by 1`.execute(db.kysely);
    const { rows: keys } = await sql<Record<string, unknown>>`select key_id, last_used_at from api_keys
      where key_id like ${like} order by 1`.execute(db.kysely);
    const map = (rows: Record<string, unknown>[]) =>
      rows.map((r) => ({
        ...r,
        ...('account_id' in r ? { account_id: untag(r.account_id as string) } : {}),
        ...('key_id' in r ? { key_id: untag(r.key_id as string | null) } : {}),
      }));
    return { ledger: map(ledger), purchases: map(purchases), balances: map(balances), keys: map(keys) };
  }

  it('charges any batch exactly as the statements of charge-batch.ts do: outcomes, ledger lines, purchases, balances, keys', async () => {
    const statements = fixedTransaction(db);
    const server = chargeFunction(db);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 60 }), { minLength: 3, maxLength: 3 }),
        fc.array(callArb, { maxLength: 6 }),
        fc.array(callArb, { minLength: 1, maxLength: 40 }),
        async (openings, bought, calls) => {
          run += 1;
          // The same order of account ids in both, so that locks and ledger lines come in the same order.
          const a = `fn${run}a`;
          const b = `fn${run}b`;
          await accounts(a, openings, bought);
          await accounts(b, openings, bought);
          const byStatements = await statements(() => chargeBatch(requests(a, calls)));
          const byFunction = await server(requests(b, calls));
          expect(byFunction).toEqual(byStatements);
          expect(await state(b)).toEqual(await state(a));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('answers an empty batch with no outcome', async () => {
    expect(await chargeFunction(db)([])).toEqual([]);
  });
});
