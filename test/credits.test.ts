import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { grantCredits } from '../src/credits/ledger.js';
import { dialects } from './support/dialects.js';
import { ALPHA, BETA, ZETA } from './support/fixture.js';
import { startApp, type TestApp } from './support/test-app.js';

describe.each(dialects())('credits and billing (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(dialect);
  });
  afterAll(() => t.close());
  afterEach(() => t.expectLedgersBalance());

  async function ledgerOf(accountId: string) {
    return t.db.kysely
      .selectFrom('ledger')
      .select(['amount', 'endpoint', 'reporting_period'])
      .where('account_id', '=', accountId)
      .orderBy('entry_id')
      .execute();
  }

  it('charges 25 for a first access, 1 for a repeat, and keys the purchase by the resolved period', async () => {
    const { key, accountId } = await t.account({ credits: 100 });
    const first = await t.get('/api/v1/revenues?ticker=BETA&reporting_period=2024', key);
    expect([first.status, first.cost, first.balance]).toEqual([200, 25, 75]);
    const repeat = await t.get('/api/v1/revenues?ticker=BETA&reporting_period=2024', key);
    expect([repeat.status, repeat.cost, repeat.balance]).toEqual([200, 1, 74]);
    const viaOffset = await t.get('/api/v1/revenues?ticker=BETA&reporting_period=-1', key);
    expect([viaOffset.cost, viaOffset.balance]).toEqual([1, 73]);
    const viaOtherId = await t.get(`/api/v1/revenues?isin=${BETA.isin}&reporting_period=2024`, key);
    expect(viaOtherId.cost).toBe(1);
    const otherPeriod = await t.get('/api/v1/revenues?ticker=BETA&reporting_period=2023', key);
    expect(otherPeriod.cost).toBe(25);
    expect((await ledgerOf(accountId)).map((e) => e.amount)).toEqual([100, -25, -1, -1, -1, -25]);
  });

  it('charges each account for its own purchase', async () => {
    const a = await t.account({ credits: 100 });
    const b = await t.account({ credits: 100 });
    expect((await t.get('/api/v1/revenues?ticker=BETA&reporting_period=2022', a.key)).cost).toBe(25);
    expect((await t.get('/api/v1/revenues?ticker=BETA&reporting_period=2022', b.key)).cost).toBe(25);
  });

  it('charges 1 for a 204 each time, and a 204 buys nothing', async () => {
    const { key } = await t.account({ credits: 5 });
    for (const balance of [4, 3]) {
      const res = await t.get(`/api/v1/revenues?company_id=${ZETA.id}&reporting_period=2022`, key);
      expect([res.status, res.cost, res.balance]).toEqual([204, 1, balance]);
    }
  });

  it('charges 1 for a search and 100 for the list', async () => {
    const { key } = await t.account({ credits: 101 });
    const search = await t.get('/api/v1/companies/search?query=alpha', key);
    expect([search.status, search.cost, search.balance]).toEqual([200, 1, 100]);
    const list = await t.get('/api/v1/companies/list', key);
    expect([list.status, list.cost, list.balance]).toEqual([200, 100, 0]);
  });

  it('answers 402 when the balance is below the cost, charging nothing', async () => {
    const { key, accountId } = await t.account({ credits: 24 });
    const res = await t.get('/api/v1/revenues?ticker=BETA&reporting_period=2024', key);
    expect([res.status, res.cost, res.balance]).toEqual([402, 25, 24]);
    expect(res.text).toMatch(/Insufficient credits/);
    const list = await t.get('/api/v1/companies/list', key);
    expect([list.status, list.cost, list.balance]).toEqual([402, 100, 24]);
    expect(await ledgerOf(accountId)).toHaveLength(1);
    // The refused first access bought nothing: with enough credits it still costs 25.
    const poor = await t.account({ credits: 0 });
    for (const path of [
      '/api/v1/revenues?ticker=BETA&reporting_period=2024',
      `/api/v1/revenues?company_id=${ZETA.id}&reporting_period=2022`,
      '/api/v1/companies/search?query=beta',
      '/api/v1/companies/list',
    ]) {
      const r = await t.get(path, poor.key);
      expect([r.status, r.balance], path).toEqual([402, 0]);
      expect(r.cost, path).toBeGreaterThan(0);
    }
  });

  it('buys nothing on a 402: once credited, the same call is a first access at 25', async () => {
    const { key, accountId } = await t.account({ credits: 24 });
    const path = '/api/v1/revenues?ticker=ALPH&reporting_period=2022';
    expect((await t.get(path, key)).status).toBe(402);
    const purchases = t.db.kysely.selectFrom('purchases').select('company_id').where('account_id', '=', accountId);
    expect(await purchases.execute()).toEqual([]);
    await grantCredits(t.db.kysely, accountId, 1, new Date().toISOString());
    const bought = await t.get(path, key);
    expect([bought.status, bought.cost, bought.balance]).toEqual([200, 25, 0]);
    expect(await purchases.execute()).toEqual([{ company_id: ALPHA.id }]);
  });

  it('reports the repeat price on a 402 for a period already bought', async () => {
    const { key, accountId } = await t.account({ credits: 25 });
    expect((await t.get('/api/v1/revenues?ticker=ALPH&reporting_period=2023', key)).balance).toBe(0);
    const res = await t.get(`/api/v1/revenues?company_id=${ALPHA.id}&reporting_period=2023`, key);
    expect([res.status, res.cost, res.balance]).toEqual([402, 1, 0]);
    expect(await ledgerOf(accountId)).toHaveLength(2);
  });

  it('charges 25 exactly once for 50 concurrent first accesses to one company-period', async () => {
    const { key } = await t.account({ credits: 1000 });
    const results = await Promise.all(
      Array.from({ length: 50 }, () => t.get('/api/v1/revenues?ticker=BETA&reporting_period=2023', key)),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    const costs = results.map((r) => r.cost).sort((a, b) => (b ?? 0) - (a ?? 0));
    expect(costs[0]).toBe(25);
    expect(costs.slice(1).every((c) => c === 1)).toBe(true);
    const balances = results.map((r) => r.balance ?? -1).sort((a, b) => a - b);
    expect(balances[0]).toBe(1000 - 25 - 49);
    expect(new Set(balances).size).toBe(50);
  });

  it('prices concurrent calls for one company-period on a first access that was refused as first accesses', async () => {
    const { key } = await t.account({ credits: 24 });
    const results = await Promise.all(
      Array.from({ length: 5 }, () => t.get('/api/v1/revenues?ticker=BETA&reporting_period=2022', key)),
    );
    expect(results.map((r) => [r.status, r.cost, r.balance])).toEqual(Array.from({ length: 5 }, () => [402, 25, 24]));
    const exact = await t.account({ credits: 25 });
    const paid = await Promise.all(
      Array.from({ length: 5 }, () => t.get('/api/v1/revenues?ticker=BETA&reporting_period=2022', exact.key)),
    );
    expect(paid.map((r) => [r.status, r.cost]).sort()).toEqual([
      [200, 25],
      [402, 1],
      [402, 1],
      [402, 1],
      [402, 1],
    ]);
  });

  it('never overdraws: concurrent first accesses to different periods with credits for one', async () => {
    const { key } = await t.account({ credits: 30 });
    const paths = [2022, 2023, 2024].flatMap((p) =>
      ['BETA', 'ALPH'].map((tk) => `/api/v1/revenues?ticker=${tk}&reporting_period=${p}`),
    );
    const results = await Promise.all(paths.map((p) => t.get(p, key)));
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    expect(ok[0]?.cost).toBe(25);
    expect(results.filter((r) => r.status === 402 || r.status === 404).length).toBe(results.length - 1);
    const final = await t.get('/api/v1/companies/search?query=beta', key);
    expect(final.balance).toBe(4);
  });
});
