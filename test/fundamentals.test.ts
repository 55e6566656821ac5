import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TEST_TOKEN } from '../src/auth/test-token.js';
import { STATEMENT_DATASETS } from './support/datasets.js';
import { dialects } from './support/dialects.js';
import { ALPHA, BETA, doc } from './support/fixture.js';
import { FIXTURE_BUNDLE, startApp, type TestApp } from './support/test-app.js';

interface Fundamentals {
  company_id: string;
  reporting_period: number;
  items: Record<string, { value: number; reporting_period: number; metric: string }[]>;
}

const PROBLEM = { accept: 'application/problem+json' };
const CALL = '/api/v1/fundamentals';

/*
 * The statement call (design §18.3) on the fixture bundle plus net income: Alpha's 2023 has both
 * items, its 2022 revenue only (its report covers the year, with no net income: an empty item),
 * Beta's 2024 both; no document covers any year before 2022.
 */
let bundle: string;
beforeAll(() => {
  bundle = mkdtempSync(join(tmpdir(), 'corpdata-fundamentals-'));
  cpSync(FIXTURE_BUNDLE, bundle, { recursive: true });
  writeFileSync(
    join(bundle, 'net_income.csv'),
    'company_id,document_id,reporting_period,value,ccy\n' +
      `${ALPHA.id},${doc(2)},2023,1491000000,EUR\n` +
      `${BETA.id},${doc(4)},2024,-250000000,USD\n`,
  );
});
afterAll(() => rmSync(bundle, { recursive: true, force: true }));

describe.each(dialects())('the statement call (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(dialect, { bundle, datasets: STATEMENT_DATASETS });
  }, 120_000);
  afterAll(() => t.close());
  afterEach(() => t.expectLedgersBalance());

  const charges = (accountId: string) =>
    t.db.kysely
      .selectFrom('ledger')
      .select(['amount', 'endpoint', 'reporting_period'])
      .where('account_id', '=', accountId)
      .where('kind', '=', 'charge')
      .orderBy('entry_id')
      .execute();
  const purchases = (accountId: string) =>
    t.db.kysely.selectFrom('purchases').select(['dataset', 'reporting_period']).where('account_id', '=', accountId).execute();

  it('answers every item the account may buy, each as its single call does, billed 25 per item first and 1 on repeat', async () => {
    const a = await t.account({ credits: 1000 });
    const res = await t.get(`${CALL}?ticker=ALPH&reporting_period=2023`, a.key);
    expect([res.status, res.cost, res.balance]).toEqual([200, 50, 950]);
    const body = res.json<Fundamentals>();
    expect(Object.keys(body)).toEqual(['company_id', 'reporting_period', 'items']);
    expect([body.company_id, body.reporting_period]).toEqual([ALPHA.id, 2023]);
    expect(Object.keys(body.items)).toEqual(['revenues', 'net-income']);
    // Exactly the single calls' answers (made by another account, which they cost nothing to this one).
    const other = await t.account({ credits: 1000 });
    for (const name of ['revenues', 'net-income']) {
      const single = await t.get(`/api/v1/${name}?ticker=ALPH&reporting_period=2023`, other.key);
      expect(body.items[name], name).toEqual(single.json());
    }
    expect(body.items['net-income']?.map((r) => r.metric)).toEqual(['Net Income']);
    expect((await charges(a.accountId)).map((l) => [Number(l.amount), l.endpoint, l.reporting_period])).toEqual([
      [-25, 'revenues/fundamentals', 2023],
      [-25, 'net-income/fundamentals', 2023],
    ]);
    // Bought: the single calls and the statement call now cost the repeat price.
    const again = await t.get(`${CALL}?company_id=${ALPHA.id}&reporting_period=2023`, a.key);
    expect([again.status, again.cost, again.balance]).toEqual([200, 2, 948]);
    expect(again.json<Fundamentals>()).toEqual(body);
    expect((await t.get('/api/v1/net-income?ticker=ALPH&reporting_period=2023', a.key)).cost).toBe(1);
  });

  it('answers [] for an item without a figure in a covered period, billed 1 as its 204', async () => {
    const a = await t.account({ credits: 1000 });
    const res = await t.get(`${CALL}?isin=${ALPHA.isin}&reporting_period=2022`, a.key);
    expect([res.status, res.cost]).toEqual([200, 26]);
    const { items } = res.json<Fundamentals>();
    expect(items['net-income']).toEqual([]);
    // Alpha's 2022 revenue, as first reported and restated.
    expect(items.revenues?.length).toBe(2);
    expect((await purchases(a.accountId)).map((p) => p.dataset)).toEqual(['revenues']);
  });

  it('answers [] for free for an item whose documents do not cover the period another item covers', async () => {
    const a = await t.account({ credits: 1000 });
    // Beta's 2022 revenue is a comparative of its 2023 10-K; no document reports on 2022 itself.
    expect((await t.get('/api/v1/net-income?ticker=BETA&reporting_period=2022', a.key)).status).toBe(404);
    const res = await t.get(`${CALL}?ticker=BETA&reporting_period=2022`, a.key);
    expect([res.status, res.cost]).toEqual([200, 25]);
    const { items } = res.json<Fundamentals>();
    expect([items.revenues?.map((r) => r.value), items['net-income']]).toEqual([[7_822_000_000], []]);
    expect((await charges(a.accountId)).map((l) => l.endpoint)).toEqual(['revenues/fundamentals']);
  });

  it('resolves an offset through the periods any item covers, and follows the identifier precedence', async () => {
    const a = await t.account({ credits: 1000 });
    // company_id wins over the ticker of another company.
    const res = await t.get(`${CALL}?company_id=${BETA.id}&ticker=ALPH&reporting_period=-1`, a.key);
    expect(res.status).toBe(200);
    const body = res.json<Fundamentals>();
    expect([body.company_id, body.reporting_period]).toEqual([BETA.id, 2024]);
    expect(body.items['net-income']?.map((r) => r.value)).toEqual([-250_000_000]);
    const second = await t.get(`${CALL}?lei=${BETA.lei}&reporting_period=-2`, a.key);
    expect(second.json<Fundamentals>().reporting_period).toBe(2023);
  });

  it('answers only the items of the subscriptions held, and 403 without any of them, charging nothing', async () => {
    const revenuesOnly = await t.account({ credits: 1000, subscriptions: ['revenues'] });
    const res = await t.get(`${CALL}?ticker=ALPH&reporting_period=2023`, revenuesOnly.key);
    expect([res.status, res.cost]).toEqual([200, 25]);
    expect(Object.keys(res.json<Fundamentals>().items)).toEqual(['revenues']);
    const fundamentalsOnly = await t.account({ credits: 1000, subscriptions: ['fundamentals'] });
    const net = await t.get(`${CALL}?ticker=ALPH&reporting_period=2023`, fundamentalsOnly.key);
    expect(Object.keys(net.json<Fundamentals>().items)).toEqual(['net-income']);
    const none = await t.account({ credits: 1000, subscriptions: ['ghg'] });
    const refused = await t.get(`${CALL}?ticker=ALPH&reporting_period=2023`, none.key, PROBLEM);
    expect([refused.status, refused.cost, refused.balance]).toEqual([403, 25, 1000]);
    expect(refused.json<{ required_subscription: string; detail: string }>().detail).toContain(
      'the revenues or fundamentals subscription',
    );
    expect(await charges(none.accountId)).toEqual([]);
  });

  it('answers 404 for an unknown company and for a period no item covers, naming the periods that exist', async () => {
    const a = await t.account({ credits: 1000 });
    const unknown = await t.get(`${CALL}?ticker=NOPE&reporting_period=2023`, a.key, PROBLEM);
    expect(unknown.status).toBe(404);
    const uncovered = await t.get(`${CALL}?ticker=BETA&reporting_period=2021`, a.key, PROBLEM);
    expect(uncovered.status).toBe(404);
    expect(uncovered.json<{ available_periods: number[] }>().available_periods).toEqual([2024, 2023, 2022]);
    const offset = await t.get(`${CALL}?ticker=ALPH&reporting_period=-3`, a.key);
    expect([offset.status, offset.text]).toEqual([404, expect.stringContaining('offset -3')]);
    expect(await charges(a.accountId)).toEqual([]);
  });

  it('refuses with 400 naming the parameter, 401 first, and checks in the order 401, 400, 403, 404', async () => {
    const a = await t.account({ credits: 1000 });
    const none = await t.account({ credits: 0, subscriptions: [] });
    const cases: [string, string | null, number, string?][] = [
      [`${CALL}?ticker=ALPH&reporting_period=2019`, a.key, 400, 'reporting_period'],
      [`${CALL}?ticker=ALPH&reporting_period=-7`, a.key, 400, 'reporting_period'],
      [`${CALL}?ticker=ALPH`, a.key, 400, 'reporting_period'],
      [`${CALL}?isin=XX&reporting_period=2023`, a.key, 400, 'isin'],
      [`${CALL}?ticker=ALPH&reporting_period=2023&verbose=1`, a.key, 400, 'verbose'],
      [`${CALL}?reporting_period=2023`, a.key, 400],
      [`${CALL}?isin=XX&reporting_period=2019`, null, 401],
      [`${CALL}?isin=XX&reporting_period=2023`, none.key, 400, 'isin'],
      [`${CALL}?ticker=NOPE&reporting_period=2023`, none.key, 403],
    ];
    for (const [path, key, status, param] of cases) {
      const res = await t.get(path, key, PROBLEM);
      expect(res.status, path).toBe(status);
      if (param !== undefined) expect(res.json<{ param?: string }>().param, path).toBe(param);
    }
    const broke = await t.account({ credits: 0, subscriptions: ['revenues'] });
    expect((await t.get(`${CALL}?ticker=NOPE&reporting_period=2023`, broke.key)).status).toBe(404);
    expect(await charges(a.accountId)).toEqual([]);
  });

  it('refuses the whole call with 402 when the balance does not cover every item, charging nothing', async () => {
    const a = await t.account({ credits: 49 });
    const res = await t.get(`${CALL}?ticker=BETA&reporting_period=2024`, a.key, PROBLEM);
    expect([res.status, res.cost, res.balance]).toEqual([402, 50, 49]);
    expect(await charges(a.accountId)).toEqual([]);
    expect(await purchases(a.accountId)).toEqual([]);
    // Nothing was bought: each item alone is still a first access.
    expect((await t.get('/api/v1/revenues?ticker=BETA&reporting_period=2024', a.key)).cost).toBe(25);
    const rest = await t.get(`${CALL}?ticker=BETA&reporting_period=2024`, a.key, PROBLEM);
    // Revenue is now a repeat (1), net income still a first access (25): 26 against a balance of 24.
    expect([rest.status, rest.cost, rest.balance]).toEqual([402, 26, 24]);
  });

  it('never charges a first access twice for one item under simultaneous first calls; the ledger is the balance', async () => {
    const a = await t.account({ credits: 10_000 });
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        i % 3 === 2
          ? t.get('/api/v1/net-income?ticker=BETA&reporting_period=2023', a.key)
          : t.get(`${CALL}?ticker=BETA&reporting_period=2023`, a.key),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual([200, 200, 204, 200, 200, 204]);
    const spent = answers.reduce((sum, r) => sum + (r.cost ?? 0), 0);
    // Revenue bought once (25), then 3 repeats; net income of 2023 is empty: 1 each of 6 answers.
    expect(spent).toBe(25 + 3 + 6);
    const lines = await charges(a.accountId);
    expect(lines.filter((l) => Number(l.amount) === -25)).toHaveLength(1);
    const account = await t.db.kysely
      .selectFrom('accounts')
      .select('balance')
      .where('account_id', '=', a.accountId)
      .executeTakeFirst();
    expect(Number(account?.balance)).toBe(10_000 - spent);
  });

  it('charges each item once when simultaneous first calls race for the same company-period', async () => {
    const a = await t.account({ credits: 10_000 });
    const answers = await Promise.all(Array.from({ length: 6 }, () => t.get(`${CALL}?ticker=ALPH&reporting_period=2023`, a.key)));
    expect(answers.map((r) => r.status)).toEqual(Array(6).fill(200));
    expect(answers.reduce((sum, r) => sum + (r.cost ?? 0), 0)).toBe(50 + 5 * 2);
    expect((await charges(a.accountId)).filter((l) => Number(l.amount) === -25)).toHaveLength(2);
  });

  it('answers the test token from each item’s mock, as the single calls do, and the magic tickers, for free', async () => {
    const res = await t.get(`${CALL}?ticker=ANY&reporting_period=-1`, TEST_TOKEN);
    expect([res.status, res.cost, res.balance, res.headers.get('x-test-mode')]).toEqual([200, 0, 0, 'true']);
    const body = res.json<Fundamentals>();
    expect(body.reporting_period).toBe(2025);
    for (const name of ['revenues', 'net-income']) {
      const single = await t.get(`/api/v1/${name}?ticker=ANY&reporting_period=-1`, TEST_TOKEN);
      expect(body.items[name], name).toEqual(single.json());
    }
    expect(body.company_id).toBe(
      (await t.get('/api/v1/revenues?ticker=ANY&reporting_period=-1', TEST_TOKEN)).json<{ company_id: string }[]>()[0]
        ?.company_id,
    );
    const empty = await t.get(`${CALL}?ticker=MOCK204&reporting_period=2024`, TEST_TOKEN);
    expect(empty.json<Fundamentals>().items).toEqual({ revenues: [], 'net-income': [] });
    const statuses = [];
    for (const ticker of ['MOCK402', 'MOCK403', 'MOCK404']) {
      statuses.push((await t.get(`${CALL}?ticker=${ticker}&reporting_period=2024`, TEST_TOKEN)).status);
    }
    expect(statuses).toEqual([402, 403, 404]);
    expect((await t.get(`${CALL}?ticker=ANY&reporting_period=2019`, TEST_TOKEN)).status).toBe(400);
  });
});
