import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TEST_TOKEN } from '../src/auth/test-token.js';
import { SUBSCRIPTIONS } from './support/datasets.js';
import { dialects } from './support/dialects.js';
import { ALPHA, BETA, GAMMA, QUIET } from './support/fixture.js';
import { startApp, type TestApp } from './support/test-app.js';

describe.each(dialects())('the free calls: account and revenue periods (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(dialect);
  });
  afterAll(() => t.close());
  afterEach(() => t.expectLedgersBalance());

  const ledgerRows = async (accountId: string) =>
    (await t.db.kysely.selectFrom('ledger').select('account_id').where('account_id', '=', accountId).execute()).length;

  it('GET /api/v1/account tells the balance and subscription, for free, writing nothing', async () => {
    const a = await t.account({ credits: 730 });
    const rows = await ledgerRows(a.accountId);
    for (let i = 0; i < 3; i++) {
      const res = await t.get('/api/v1/account', a.key);
      expect(res.status).toBe(200);
      expect(res.json()).toEqual({
        account_id: a.accountId,
        balance: 730,
        subscription: 'revenues',
        subscriptions: SUBSCRIPTIONS,
      });
      expect([res.cost, res.balance]).toEqual([0, 730]);
    }
    expect(await ledgerRows(a.accountId)).toBe(rows);

    const paid = await t.get('/api/v1/revenues?ticker=BETA&reporting_period=2023', a.key);
    expect([paid.status, paid.cost, paid.balance]).toEqual([200, 25, 705]);
    expect((await t.get('/api/v1/account', a.key)).json()).toMatchObject({ balance: 705 });

    const none = await t.account({ credits: 0, subscription: 'none' });
    const res = await t.get('/api/v1/account', none.key);
    expect(res.json()).toEqual({ account_id: none.accountId, balance: 0, subscription: 'none', subscriptions: [] });
    expect([res.cost, res.balance]).toEqual([0, 0]); // a zero balance is enough: the call is free
  });

  it('GET /api/v1/account refuses a missing or bad key (401) and unknown parameters (400)', async () => {
    const missing = await t.get('/api/v1/account');
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer');
    expect((await t.get('/api/v1/account', 'not.a.key')).status).toBe(401);
    const a = await t.account();
    const typo = await t.get('/api/v1/account?verbose=1', a.key);
    expect(typo.status).toBe(400);
    expect(typo.text).toContain("'verbose'");
  });

  it('GET /api/v1/account with the test token answers a fixed mock account', async () => {
    const res = await t.get('/api/v1/account', TEST_TOKEN);
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ balance: 0, subscription: 'revenues' });
    expect(res.cost).toBe(0);
  });

  it('GET /api/v1/revenues/periods lists the available periods, most recent first, for free', async () => {
    const a = await t.account({ credits: 5 });
    const rows = await ledgerRows(a.accountId);
    const beta = await t.get('/api/v1/revenues/periods?ticker=BETA', a.key);
    expect(beta.status).toBe(200);
    expect(beta.json()).toEqual({ company_id: BETA.id, reporting_periods: [2024, 2023, 2022] });
    expect([beta.cost, beta.balance]).toEqual([0, 5]);
    // Every identifier of /revenues, with its precedence.
    for (const q of [`company_id=${BETA.id}`, `isin=${BETA.isin}`, `lei=${BETA.lei}`, 'ticker=beta&mic_code=XNYS']) {
      expect((await t.get(`/api/v1/revenues/periods?${q}`, a.key)).json()).toEqual(beta.json());
    }
    expect((await t.get(`/api/v1/revenues/periods?company_id=${ALPHA.id}&ticker=BETA`, a.key)).json()).toEqual({
      company_id: ALPHA.id,
      reporting_periods: [2023, 2022],
    });
    // Pending and failed documents count for nothing (Gamma: 2024 pending, 2021 failed).
    expect((await t.get(`/api/v1/revenues/periods?company_id=${GAMMA.id}`, a.key)).json()).toEqual({
      company_id: GAMMA.id,
      reporting_periods: [2023],
    });
    expect(await ledgerRows(a.accountId)).toBe(rows);
    expect((await t.get('/api/v1/account', a.key)).json()).toMatchObject({ balance: 5 });
  });

  it('GET /api/v1/revenues/periods: -N of /revenues is the N-th period it lists', async () => {
    const a = await t.account();
    const { reporting_periods } = (await t.get('/api/v1/revenues/periods?ticker=BETA', a.key)).json<{
      reporting_periods: number[];
    }>();
    for (const [i, period] of reporting_periods.entries()) {
      const res = await t.get(`/api/v1/revenues?ticker=BETA&reporting_period=${-(i + 1)}`, a.key);
      expect(res.json<Array<{ reporting_period: number }>>()[0]?.reporting_period).toBe(period);
    }
  });

  it('GET /api/v1/revenues/periods answers an empty list for a company without processed documents', async () => {
    const a = await t.account();
    const res = await t.get(`/api/v1/revenues/periods?company_id=${QUIET.id}`, a.key);
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ company_id: QUIET.id, reporting_periods: [] });
  });

  it('GET /api/v1/revenues/periods refuses as /revenues does: 401, 400, 403, 404, all free', async () => {
    const a = await t.account({ credits: 50 });
    expect((await t.get('/api/v1/revenues/periods?ticker=BETA')).status).toBe(401);
    for (const [query, param] of [
      ['ticker=BETA&reporting_period=2023', 'reporting_period'],
      ['isin=XX', 'isin'],
      ['ticker=BETA&mic_code=XNOPE', 'mic_code'],
      ['ticker=BETA&ticker=ALPH', 'ticker'],
      ['lei=', 'lei'],
    ]) {
      const res = await t.get(`/api/v1/revenues/periods?${query}`, a.key);
      expect(res.status, query).toBe(400);
      expect(res.text).toContain(`'${param}'`);
    }
    const noId = await t.get('/api/v1/revenues/periods?mic_code=XNYS', a.key);
    expect(noId.status).toBe(400);
    expect(noId.text).toMatch(/identifier/);

    const unknown = await t.get('/api/v1/revenues/periods?ticker=NOPE', a.key);
    expect(unknown.status).toBe(404);
    expect(unknown.text).toBe('No company matches the given ticker.');

    const none = await t.account({ credits: 50, subscription: 'none' });
    const forbidden = await t.get('/api/v1/revenues/periods?ticker=BETA', none.key);
    expect(forbidden.status).toBe(403);
    expect([forbidden.cost, forbidden.balance]).toEqual([0, 50]);
    // 400 comes before 403
    expect((await t.get('/api/v1/revenues/periods?isin=XX', none.key)).status).toBe(400);

    expect((await t.get('/api/v1/account', a.key)).json()).toMatchObject({ balance: 50 });
    expect((await t.get('/api/v1/account', none.key)).json()).toMatchObject({ balance: 50 });
  });

  it('GET /api/v1/revenues/periods with the test token answers deterministic mock periods', async () => {
    const one = await t.get('/api/v1/revenues/periods?ticker=ANY', TEST_TOKEN);
    expect(one.status).toBe(200);
    expect(one.json()).toEqual((await t.get('/api/v1/revenues/periods?ticker=ANY', TEST_TOKEN)).json());
    expect(one.json<{ reporting_periods: number[] }>().reporting_periods[0]).toBe(2025);
  });
});
