import { connect as connectSocket, createServer, type Server, type Socket } from 'node:net';
import fc from 'fast-check';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SUBSCRIPTIONS } from '../../test/support/datasets.js';
import { dialects } from '../../test/support/dialects.js';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database.js';
import { createAccount } from '../accounts/accounts.js';
import { connect, type Db } from '../db/connect.js';
import { migrate } from '../db/migrate.js';
import { Biller, type ChargeRequest, type ChargeResult } from './charge.js';
import { chargeFunction } from './charge-function.js';
import { grantCredits } from './ledger.js';

/** One operation of a generated run: a billed call on one of three instances, or a grant. */
type Op =
  | { kind: 'buy'; instance: number; account: number; dataset: string; company: number; period: number; pause: boolean }
  | { kind: 'flat'; instance: number; account: number; price: number; pause: boolean }
  | { kind: 'grant'; account: number; credits: number; pause: boolean };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('buy' as const),
      instance: fc.integer({ min: 0, max: 2 }),
      account: fc.integer({ min: 0, max: 2 }),
      dataset: fc.constantFrom('revenues', 'ghg-emissions'),
      company: fc.integer({ min: 0, max: 2 }),
      period: fc.integer({ min: 2022, max: 2023 }),
      pause: fc.boolean(),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('flat' as const),
      instance: fc.integer({ min: 0, max: 2 }),
      account: fc.integer({ min: 0, max: 2 }),
      price: fc.constantFrom(0, 1, 100),
      pause: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('grant' as const),
      account: fc.integer({ min: 0, max: 2 }),
      credits: fc.integer({ min: 1, max: 40 }),
      pause: fc.boolean(),
    }),
  },
);

const FIRST = 25;
const REPEAT = 1;

interface Outcome {
  req: ChargeRequest;
  result: ChargeResult;
}

/**
 * Checks one account against the sequential model: its ledger, in entry order (the order its
 * transactions took its row lock), replays as a run of single calls, each priced as if alone
 * (25 for the first purchase of a dataset's company-period, 1 after it) and each leaving the
 * balance it reports; refused calls left nothing and saw a balance below their cost; the
 * purchases are exactly those paid 25, and the balance is the ledger's sum.
 */
async function checkAccount(db: Db, accountId: string, outcomes: Outcome[]): Promise<void> {
  const k = db.kysely;
  const { rows: ledger } = await sql<{
    amount: number;
    balance_after: number;
    kind: string;
    request_id: string | null;
    company_id: string | null;
    reporting_period: number | null;
    endpoint: string | null;
  }>`select amount, balance_after, kind, request_id, company_id, reporting_period, endpoint from ledger
     where account_id = ${accountId} order by entry_id`.execute(k);
  const byRequest = new Map(outcomes.map((o) => [o.req.requestId, o]));
  const charged = new Set<string>();
  const bought = new Set<string>();
  const states = new Set<number>([0]);
  let balance = 0;
  for (const line of ledger) {
    const amount = Number(line.amount);
    if (line.kind === 'grant') {
      balance += amount;
    } else {
      const id = line.request_id ?? '';
      const o = byRequest.get(id);
      expect(o, `ledger line ${id} belongs to a call of this account`).toBeDefined();
      if (o === undefined) continue;
      expect(charged.has(id), `request ${id} charged once`).toBe(false);
      charged.add(id);
      let cost = o.req.price;
      const p = o.req.purchase;
      if (p !== undefined) {
        const key = `${p.dataset}/${p.companyId}/${p.period}`;
        cost = bought.has(key) ? p.repeatPrice : o.req.price;
        bought.add(key);
        expect([line.endpoint, line.company_id, Number(line.reporting_period)]).toEqual([o.req.endpoint, p.companyId, p.period]);
      }
      expect(0 - amount || 0, `cost of ${id}`).toBe(cost);
      balance -= cost;
      expect(o.result).toEqual({ ok: true, cost, balance });
    }
    expect(Number(line.balance_after)).toBe(balance);
    expect(balance).toBeGreaterThanOrEqual(0);
    states.add(balance);
  }
  for (const o of outcomes) {
    if (o.result.ok) {
      expect(charged.has(o.req.requestId), `charged ${o.req.requestId} is in the ledger`).toBe(true);
    } else {
      expect(charged.has(o.req.requestId), `refused ${o.req.requestId} left no ledger line`).toBe(false);
      expect(o.result.balance).toBeLessThan(o.result.cost);
      expect(states.has(o.result.balance), `refused ${o.req.requestId} saw a balance the account had`).toBe(true);
    }
  }
  const row = await k.selectFrom('accounts').select('balance').where('account_id', '=', accountId).executeTakeFirstOrThrow();
  expect(Number(row.balance)).toBe(balance);
  const purchases = await k
    .selectFrom('purchases')
    .select(['dataset', 'company_id', 'reporting_period'])
    .where('account_id', '=', accountId)
    .execute();
  expect(new Set(purchases.map((p) => `${p.dataset}/${p.company_id}/${p.reporting_period}`))).toEqual(bought);
}

describe.each(dialects())('charging from several instances at once (%s)', (dialect) => {
  let database: TestDatabase;
  /**
   * Three instances, each its own biller; on PostgreSQL each its own pool too. On SQLite they share
   * one connection: instances are processes there, and in one process a second connection would
   * wait synchronously for the first one's write lock, which it holds across awaits.
   */
  let dbs: Db[];
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    const first = connect(database.config);
    dbs = dialect === 'postgres' ? [first, connect(database.config), connect(database.config)] : [first, first, first];
    await migrate(first);
  });
  afterAll(async () => {
    for (const db of new Set(dbs ?? [])) await db.close();
    await database?.drop();
  });

  it('matches a sequential model for any mix of calls, prices, balances and grants over accounts and instances', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 80 }), { minLength: 3, maxLength: 3 }),
        fc.array(opArb, { minLength: 1, maxLength: 60 }),
        async (openings, ops) => {
          run += 1;
          const db0 = dbs[0] as Db;
          const billers = dbs.map((db) => new Biller(db));
          const accounts: string[] = [];
          for (const [i, credits] of openings.entries()) {
            const a = await createAccount(
              db0.kysely,
              {
                email: `cc${run}-${i}-${Date.now()}@example.com`,
                credits,
                now: new Date(),
              },
              SUBSCRIPTIONS,
            );
            accounts.push(a.account_id);
          }
          const outcomes: Outcome[] = [];
          const pending: Promise<unknown>[] = [];
          for (const [i, op] of ops.entries()) {
            const accountId = accounts[op.account] as string;
            const at = new Date().toISOString();
            if (op.kind === 'grant') {
              pending.push(grantCredits((dbs[i % 3] as Db).kysely, accountId, op.credits, at));
            } else {
              const req: ChargeRequest = {
                accountId,
                keyId: null,
                endpoint: op.kind === 'buy' ? op.dataset : 'search',
                price: op.kind === 'buy' ? FIRST : op.price,
                ...(op.kind === 'buy'
                  ? { purchase: { dataset: op.dataset, companyId: `c${op.company}`, period: op.period, repeatPrice: REPEAT } }
                  : {}),
                requestId: `cc${run}-${i}`,
                at,
              };
              pending.push((billers[op.instance] as Biller).charge(req).then((result) => outcomes.push({ req, result })));
            }
            // Calls before a pause start batches of their own; the others share one.
            if (op.pause) await new Promise((r) => setImmediate(r));
          }
          await Promise.all(pending);
          for (const accountId of accounts)
            await checkAccount(
              db0,
              accountId,
              outcomes.filter((o) => o.req.accountId === accountId),
            );
        },
      ),
      { numRuns: dialect === 'postgres' ? 60 : 30 },
    );
  });
});

describe.each(dialects().filter((d) => d === 'postgres'))('a batch whose connection is killed (%s)', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    db = connect(database.config);
    await migrate(db);
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  it('leaves nothing of the batch, and its calls are charged once each, alone', async () => {
    const k = db.kysely;
    const now = new Date();
    const rich = (await createAccount(k, { email: 'kill-rich@example.com', credits: 100, now }, SUBSCRIPTIONS)).account_id;
    const poor = (await createAccount(k, { email: 'kill-poor@example.com', credits: 26, now }, SUBSCRIPTIONS)).account_id;
    const admin = new pg.Client({ connectionString: process.env.CORPDATA_TEST_PG_URL ?? inject('pgUrl') });
    const holder = new pg.Client({ connectionString: database.url });
    await admin.connect();
    await holder.connect();
    try {
      // Hold the rich account's row: the batch inserts its purchases, then waits for that lock.
      await holder.query('begin');
      await holder.query('update accounts set balance = balance where account_id = $1', [rich]);
      const biller = new Biller(db);
      const at = now.toISOString();
      const buy = (accountId: string, requestId: string, company: string): ChargeRequest => ({
        accountId,
        keyId: null,
        endpoint: 'revenues',
        price: FIRST,
        purchase: { dataset: 'revenues', companyId: company, period: 2024, repeatPrice: REPEAT },
        requestId,
        at,
      });
      const calls = [buy(rich, 'k1', 'c1'), buy(rich, 'k2', 'c1'), buy(poor, 'k3', 'c1'), buy(poor, 'k4', 'c2')];
      const results = Promise.all(calls.map((c) => biller.charge(c)));
      const database_ = new URL(database.url).pathname.slice(1);
      let killed = 0;
      for (let i = 0; i < 200 && killed === 0; i++) {
        const { rows } = await admin.query<{ pid: number }>(
          `select pid from pg_stat_activity where datname = $1 and query like '%charge_batch%' and wait_event_type = 'Lock'`,
          [database_],
        );
        for (const { pid } of rows) {
          await admin.query('select pg_terminate_backend($1)', [pid]);
          killed += 1;
        }
        if (killed === 0) await new Promise((r) => setTimeout(r, 10));
      }
      expect(killed).toBe(1);
      // While the batch waited, its purchases were inserted; none outlived it.
      const { rows: seen } = await holder.query('select count(*)::int as n from purchases');
      expect(seen[0]?.n).toBe(0);
      await holder.query('commit');
      const charged = await results;
      expect(charged).toEqual([
        { ok: true, cost: 25, balance: 75 },
        { ok: true, cost: 1, balance: 74 },
        { ok: true, cost: 25, balance: 1 },
        { ok: false, cost: 25, balance: 1 },
      ]);
      const { rows: ledger } = await sql<{ request_id: string; amount: number }>`select request_id, amount from ledger
        where kind = 'charge' order by entry_id`.execute(k);
      expect(ledger.map((l) => [l.request_id, Number(l.amount)])).toEqual([
        ['k1', -25],
        ['k2', -1],
        ['k3', -25],
      ]);
      const { rows: purchases } = await sql<{ account_id: string; company_id: string }>`select account_id, company_id
        from purchases order by 1, 2`.execute(k);
      expect(purchases).toEqual(
        [
          { account_id: rich, company_id: 'c1' },
          { account_id: poor, company_id: 'c1' },
        ].sort((a, b) => (a.account_id < b.account_id ? -1 : 1)),
      );
      const { rows: sums } = await sql<{ ok: boolean }>`select bool_and(a.balance = l.total) as ok from accounts a
        join (select account_id, sum(amount) as total from ledger group by account_id) l using (account_id)`.execute(k);
      expect(sums[0]?.ok).toBe(true);
    } finally {
      await holder.query('rollback').catch(() => undefined);
      await holder.end();
      await admin.end();
    }
  });
});

/**
 * A TCP relay to the database that, once armed, swallows the next answer the server sends on an
 * open connection and cuts that connection: the statement ran (and committed), its client never
 * hears of it.
 */
function lossyRelay(target: URL): Promise<{ url: URL; arm(): void; close(): Promise<void> }> {
  let armed = false;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connectSocket(Number(target.port), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => sockets.delete(s));
    }
    client.on('data', (chunk) => upstream.write(chunk));
    upstream.on('data', (chunk) => {
      if (armed) {
        armed = false;
        client.destroy();
        upstream.destroy();
        return;
      }
      client.write(chunk);
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const url = new URL(target);
      url.hostname = '127.0.0.1';
      url.port = String(typeof address === 'object' && address !== null ? address.port : 0);
      resolve({
        url,
        arm: () => {
          armed = true;
        },
        close: () =>
          new Promise<void>((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      });
    }),
  );
}

describe.each(dialects().filter((d) => d === 'postgres'))('a batch whose answer is lost after its commit (%s)', (dialect) => {
  it('is answered from the ledger: its charges are neither lost nor made twice', async () => {
    const database = await createTestDatabase(dialect);
    const direct = connect(database.config);
    const relay = await lossyRelay(new URL(database.url));
    const db = connect({ kind: 'postgres', url: relay.url.toString() }, { poolSize: 1 });
    try {
      await migrate(direct);
      if (db.dialect !== 'postgres') throw new Error('expected PostgreSQL');
      const k = direct.kysely;
      const now = new Date();
      const a = (await createAccount(k, { email: 'lost-a@example.com', credits: 30, now }, SUBSCRIPTIONS)).account_id;
      const b = (await createAccount(k, { email: 'lost-b@example.com', credits: 10, now }, SUBSCRIPTIONS)).account_id;
      const charge = chargeFunction(db);
      const at = now.toISOString();
      const call = (accountId: string, requestId: string, company?: string): ChargeRequest => ({
        accountId,
        keyId: null,
        endpoint: company === undefined ? 'search' : 'revenues',
        price: company === undefined ? 1 : FIRST,
        ...(company === undefined
          ? {}
          : { purchase: { dataset: 'revenues', companyId: company, period: 2024, repeatPrice: REPEAT } }),
        requestId,
        at,
      });
      // A batch answered as usual, so that the instance has seen a ledger entry.
      expect(await charge([call(a, 'before')])).toEqual([{ ok: true, cost: 1, balance: 29 }]);
      relay.arm();
      const outcomes = await charge([
        call(a, 'l1', 'c1'),
        call(a, 'l2', 'c1'),
        call(b, 'l3', 'c1'),
        call(b, 'l4'),
        call(a, 'l5', 'c2'),
      ]);
      // Charged in the lost batch: answered from the ledger. Refused there (l5: 3 credits left for 25): charged afresh.
      expect(outcomes).toEqual([
        { ok: true, cost: 25, balance: 4 },
        { ok: true, cost: 1, balance: 3 },
        'retry',
        { ok: true, cost: 1, balance: 9 },
        'retry',
      ]);
      const { rows } = await sql<{
        request_id: string;
      }>`select request_id from ledger where kind = 'charge' order by entry_id`.execute(k);
      expect(rows.map((r) => r.request_id).sort()).toEqual(['before', 'l1', 'l2', 'l4']);
    } finally {
      await relay.close();
      await db.close();
      await direct.close();
      await database.drop();
    }
  });
});
