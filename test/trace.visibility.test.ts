import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleClient } from './support/console-client.js';
import { DATASETS, SUBSCRIPTIONS } from './support/datasets.js';
import { dialects } from './support/dialects.js';
import { BETA } from './support/fixture.js';
import { GHG_BUNDLE, startApp, type TestAccount, type TestApp } from './support/test-app.js';

/**
 * Beta 2023 beside its processed documents: a pending and a failed 10-K whose revenues
 * (999,999,999,999 and 888,888,888,888 USD) and a pending climate report whose Scope 1 (777,777 t)
 * the API never serves.
 */
const UNSERVED_BUNDLE = fileURLToPath(new URL('./fixtures/unserved-bundle', import.meta.url));
const UNSERVED_VALUES = ['999999999999', '888888888888', '777777', '999,999,999,999', '888,888,888,888', '777,777'];
const PASSWORD = 'trace visibility password';
/** Every dataset the API serves, by name. */
const NAMES = DATASETS.map((d) => d.name);
const JSON_ACCEPT = { accept: 'application/json' };

interface Buyer {
  account: TestAccount;
  console: ConsoleClient;
  /** The trace ids the API's own answers gave this account: exactly the points it bought. */
  bought: Set<string>;
}

const traceIdOf = (url: string): string => url.slice(url.lastIndexOf('/trace/') + '/trace/'.length);

/**
 * The one visibility rule (design §11.3), as a property over random ids and accounts: a trace
 * page or provenance shows values exactly for the points the account's own paid answers named,
 * through HTML and JSON, with a key and with a console session.
 */
describe.each(dialects())('no value without a purchase (%s)', (dialect) => {
  let t: TestApp;
  let buyers: Buyer[];
  /** Every id a caller could try: every stored point, every same-company-period pair, unknown ones. */
  let candidates: string[];
  /** The ids the API serves in any dataset: all the full buyer's answers named. */
  let served: Set<string>;

  async function buyer(subscriptions: string[], buys: Array<[string, string, number]>): Promise<Buyer> {
    const account = await t.account({ credits: 100_000, subscriptions, password: PASSWORD });
    const client = new ConsoleClient(t.url);
    expect((await client.signIn(account.email, PASSWORD)).status).toBe(303);
    const bought = new Set<string>();
    for (const [dataset, companyId, period] of buys) {
      const res = await t.get(`/api/v1/${dataset}?company_id=${companyId}&reporting_period=${period}`, account.key);
      expect([200, 204]).toContain(res.status);
      if (res.status === 200) {
        for (const r of res.json<Array<{ traceability_source_url: string }>>()) bought.add(traceIdOf(r.traceability_source_url));
      }
    }
    return { account, console: client, bought };
  }

  beforeAll(async () => {
    t = await startApp(dialect, { more: [GHG_BUNDLE, UNSERVED_BUNDLE] });
    const db = t.db.kysely;
    const revenuePoints = await db.selectFrom('revenue_points').select(['point_id', 'company_id', 'reporting_period']).execute();
    const ghgPoints = await db.selectFrom('ghg_points').select(['point_id', 'company_id', 'reporting_period']).execute();
    const pairs = ghgPoints.flatMap((g) =>
      revenuePoints
        .filter((r) => r.company_id === g.company_id && r.reporting_period === g.reporting_period)
        .map((r) => `${g.point_id}~${r.point_id}`),
    );
    candidates = [
      ...revenuePoints.map((p) => p.point_id),
      ...ghgPoints.map((p) => p.point_id),
      ...pairs,
      '00000000-0000-4000-8000-00000000dead',
      `${ghgPoints[0]?.point_id}~00000000-0000-4000-8000-00000000dead`,
    ];
    // Every company-period of every dataset that has any point.
    const everything: Array<[string, string, number]> = [];
    const companyPeriods = new Set([...revenuePoints, ...ghgPoints].map((p) => `${p.company_id}|${p.reporting_period}`));
    for (const key of companyPeriods) {
      const [companyId = '', period = ''] = key.split('|');
      for (const dataset of NAMES) {
        const periods = await t.get(`/api/v1/${dataset}/periods?company_id=${companyId}`, (await t.account()).key);
        if (
          periods.status === 200 &&
          periods.json<{ reporting_periods: number[] }>().reporting_periods.includes(Number(period))
        ) {
          everything.push([dataset, companyId, Number(period)]);
        }
      }
    }
    const full = await buyer([...SUBSCRIPTIONS], everything);
    served = full.bought;
    buyers = [
      full,
      // The probe's account: GHG only, it bought Beta 2023's intensity and nothing else.
      await buyer(['ghg'], [['ghg-intensity', BETA.id, 2023]]),
      await buyer([...SUBSCRIPTIONS], [['revenues', BETA.id, 2023]]),
      await buyer([...SUBSCRIPTIONS], [['ghg-emissions', BETA.id, 2023]]),
      await buyer([...SUBSCRIPTIONS], []),
    ];
  });
  afterAll(() => t.close());

  it('the fixture holds what the probe found: unserved points beside served ones, and intensities', () => {
    expect(served.size).toBeGreaterThan(10);
    expect([...served].some((id) => id.includes('~'))).toBe(true);
    expect(candidates.filter((id) => id.includes('~')).length).toBeGreaterThan(
      [...served].filter((id) => id.includes('~')).length,
    );
  });

  it('an intensity id is only the pair the intensity answer used: any other pair is no data point', async () => {
    const a = buyers[1] as Buyer;
    for (const id of candidates.filter((c) => c.includes('~'))) {
      const res = await t.get(`/api/v1/trace/${id}`, a.account.key);
      expect(res.status, id).toBe(served.has(id) ? 200 : 404);
      expect((await a.console.get(`/trace/${id}`)).status, id).toBe(served.has(id) ? 200 : 404);
    }
  });

  it('JSON provenance, by key and by console session: values exactly for the points the account bought', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...candidates), fc.nat({ max: buyers.length - 1 }), async (id, n) => {
        const b = buyers[n] as Buyer;
        const byKey = await t.get(`/api/v1/trace/${id}`, b.account.key);
        const bySession = await b.console.get(`/trace/${id}`, JSON_ACCEPT);
        const byKeyOnPage = await t.get(`/trace/${id}`, b.account.key, JSON_ACCEPT);
        for (const res of [byKey, bySession, byKeyOnPage]) {
          if (res.status === 404) {
            expect(served.has(id), id).toBe(false);
            continue;
          }
          expect(res.status).toBe(200);
          const body = JSON.parse(res.text) as { values_included: boolean; values: unknown };
          expect(body.values_included, `${id} for buyer ${n}`).toBe(b.bought.has(id));
          expect(body.values === null).toBe(!b.bought.has(id));
          if (!b.bought.has(id)) for (const v of UNSERVED_VALUES) expect(res.text).not.toContain(v);
        }
      }),
      { numRuns: 120 },
    );
  });

  it('HTML pages: a value row exactly for the points the account bought, never an unserved figure', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...candidates), fc.nat({ max: buyers.length }), async (id, n) => {
        // n = buyers.length: a visitor who is not signed in.
        const b = buyers[n];
        const res = await (b?.console ?? new ConsoleClient(t.url)).get(`/trace/${id}`);
        if (res.status === 404) {
          expect(served.has(id), id).toBe(false);
          return;
        }
        expect(res.status).toBe(200);
        expect(res.text.includes('<dt>Value</dt>'), `${id} for buyer ${n}`).toBe(b?.bought.has(id) ?? false);
        for (const v of UNSERVED_VALUES) expect(res.text).not.toContain(v);
      }),
      { numRuns: 120 },
    );
  });

  it('a point of a pending or failed document says the API does not serve it, even to an account that bought its period', async () => {
    const full = buyers[0] as Buyer;
    const unserved = candidates.filter((id) => !id.includes('~') && !served.has(id) && !id.endsWith('dead'));
    // The probe's three, Gamma's pending 2024 revenue and its pending 2023 climate report's Scope 1.
    expect(unserved.length).toBe(5);
    for (const id of unserved) {
      const page = await full.console.get(`/trace/${id}`);
      expect(page.status).toBe(200);
      expect(page.text).toContain('The API does not serve this data point');
      expect(page.text).not.toContain('<dt>Value</dt>');
    }
  });
});
