import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from './support/dialects.js';
import { ALPHA, BETA, GAMMA, QUIET } from './support/fixture.js';
import { GHG_BUNDLE, startApp, type TestAccount, type TestApp } from './support/test-app.js';

/** Every status of /revenues, in its order (401 → 400 → 403 → 404 → 200/204 or 402), for both GHG endpoints. */
describe.each(dialects())('GHG endpoints, statuses and their order (%s)', (dialect) => {
  let t: TestApp;
  let caller: TestAccount;
  beforeAll(async () => {
    t = await startApp(dialect, { more: [GHG_BUNDLE] });
    caller = await t.account({ credits: 10_000 });
  });
  afterAll(() => t.close());
  afterEach(() => t.expectLedgersBalance());

  describe.each(['ghg-emissions', 'ghg-intensity'])('/api/v1/%s', (endpoint) => {
    const path = (query: string) => `/api/v1/${endpoint}?${query}`;

    it('answers 401 without a valid key, before any other check, and charges nothing', async () => {
      for (const key of [null, 'not-a-jwt', 'eyJhbGciOiJIUzI1NiJ9.e30.AAAA']) {
        const res = await t.get(path('reporting_period=1999'), key);
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      }
    });

    it.each([
      ['reporting_period=2023', 'company_id'],
      ['ticker=BETA', 'reporting_period'],
      ['ticker=BETA&reporting_period=2019', 'reporting_period'],
      ['ticker=BETA&reporting_period=-7', 'reporting_period'],
      ['ticker=BETA&reporting_period=abc', 'reporting_period'],
      ['ticker=BETA&reporting_period=2023&reporting_year=2023', 'reporting_year'],
      ['ticker=BETA&ticker=BETA&reporting_period=2023', 'ticker'],
      ['isin=US000BETA00&reporting_period=2023', 'isin'],
      ['lei=short&reporting_period=2023', 'lei'],
      ['company_id=nope&reporting_period=2023', 'company_id'],
      ['ticker=BETA&mic_code=ZZZZ9&reporting_period=2023', 'mic_code'],
      ['ticker=&reporting_period=2023', 'ticker'],
    ])('answers 400 for %s, naming %s, free', async (query, param) => {
      const { key } = await t.account({ credits: 100 });
      const res = await t.get(path(query), key);
      expect(res.status, res.text).toBe(400);
      expect(res.text).toContain(param);
      expect((await t.get(path('ticker=BETA&reporting_period=2023'), key)).balance).toBe(75);
    });

    it('answers 403 without the ghg subscription, with the first-access price and the balance; free; before 404', async () => {
      for (const subscriptions of [[], ['revenues']]) {
        const { key } = await t.account({ credits: 40, subscriptions });
        const res = await t.get(path('ticker=BETA&reporting_period=2023'), key);
        expect([res.status, res.cost, res.balance]).toEqual([403, 25, 40]);
        const unknown = await t.get(path(`company_id=${QUIET.id.replace('9', 'f')}&reporting_period=2023`), key);
        expect([unknown.status, unknown.cost, unknown.balance]).toEqual([403, 25, 40]);
        // 400 still comes before 403.
        expect((await t.get(path('ticker=BETA&reporting_period=2019'), key)).status).toBe(400);
      }
    });

    it('serves an account holding only ghg, which in turn gets 403 from /revenues', async () => {
      const { key } = await t.account({ credits: 100, subscriptions: ['ghg'] });
      expect((await t.get(path('ticker=BETA&reporting_period=2023'), key)).status).toBe(200);
      const revenues = await t.get('/api/v1/revenues?ticker=BETA&reporting_period=2023', key);
      expect([revenues.status, revenues.cost]).toEqual([403, 25]);
    });

    it('answers 404 for an unknown company, a period not covered and an offset beyond the periods; free', async () => {
      const { key } = await t.account({ credits: 100 });
      for (const query of [
        'ticker=NOPE&reporting_period=2023',
        `company_id=${QUIET.id}&reporting_period=2023`,
        'ticker=BETA&reporting_period=2021',
        'ticker=BETA&reporting_period=-4',
      ]) {
        const res = await t.get(path(query), key);
        expect(res.status, query).toBe(404);
        expect(res.cost, query).toBeNull();
      }
      expect((await t.get(path('ticker=BETA&reporting_period=2024'), key)).balance).toBe(75);
    });

    it('answers 402 when the balance is below the price, charging nothing, before it charges anything', async () => {
      const { key } = await t.account({ credits: 24 });
      const res = await t.get(path('ticker=BETA&reporting_period=2023'), key);
      expect([res.status, res.cost, res.balance]).toEqual([402, 25, 24]);
      const broke = await t.account({ credits: 0 });
      // A 204 costs 1: with nothing left it is a 402 too (Alpha's 2023 report holds no 2023 emission figure).
      const noData = await t.get(path(`company_id=${ALPHA.id}&reporting_period=2023`), broke.key);
      expect([noData.status, noData.cost, noData.balance]).toEqual([402, 1, 0]);
    });

    it('answers 404 for a period whose only report is still pending', async () => {
      const res = await t.get(path(`company_id=${GAMMA.id}&reporting_period=2024`), caller.key);
      expect(res.status).toBe(404);
      const emissions = await t.get(`/api/v1/ghg-emissions?company_id=${GAMMA.id}&reporting_period=2023`, caller.key);
      expect(emissions.status).toBe(404);
    });

    it('resolves every identifier of a company to the same answer', async () => {
      const bodies = [];
      for (const id of [
        `company_id=${BETA.id}`,
        `isin=${BETA.isin}`,
        `lei=${BETA.lei}`,
        'ticker=beta',
        'ticker=BETA&mic_code=XNYS',
      ]) {
        const res = await t.get(path(`${id}&reporting_period=2023`), caller.key);
        expect(res.status, id).toBe(200);
        bodies.push(res.text);
      }
      expect(new Set(bodies).size).toBe(1);
    });
  });
});
