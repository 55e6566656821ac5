import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TEST_TOKEN } from '../src/auth/test-token.js';
import { DATASETS } from './support/datasets.js';
import { dialects } from './support/dialects.js';
import { BETA, doc, ZETA } from './support/fixture.js';
import { startApp, type TestApp } from './support/test-app.js';

interface History {
  company_id: string;
  periods: { reporting_period: number; records: { reporting_period: number; document_id: string; value: number }[] }[];
}

const PROBLEM = { accept: 'application/problem+json' };

describe.each(dialects())('dataset history (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(dialect);
  });
  afterAll(() => t.close());
  afterEach(() => t.expectLedgersBalance());

  const ledger = (accountId: string) =>
    t.db.kysely
      .selectFrom('ledger')
      .select(['amount', 'endpoint', 'company_id', 'reporting_period', 'request_id'])
      .where('account_id', '=', accountId)
      .where('kind', '=', 'charge')
      .orderBy('entry_id')
      .execute();

  it('answers every available period in the range, billed as the single calls: 25 each first, 1 each repeat', async () => {
    const a = await t.account({ credits: 1000 });
    const res = await t.get('/api/v1/revenues/history?ticker=BETA&from=2022&to=2024', a.key);
    expect(res.status).toBe(200);
    const body = res.json<History>();
    expect(body.company_id).toBe(BETA.id);
    expect(body.periods.map((p) => p.reporting_period)).toEqual([2024, 2023, 2022]);
    // Each period holds exactly what the single call answers.
    const single = await t.get('/api/v1/revenues?ticker=BETA&reporting_period=2023', a.key);
    expect(body.periods[1]?.records).toEqual(single.json());
    expect(body.periods[1]?.records.map((r) => r.document_id)).toEqual([doc(3), doc(4)]);
    expect([res.cost, res.balance]).toEqual([75, 925]);
    const lines = await ledger(a.accountId);
    expect(lines.slice(0, 3).map((l) => [Number(l.amount), l.endpoint, l.company_id, Number(l.reporting_period)])).toEqual([
      [-25, 'revenues/history', BETA.id, 2024],
      [-25, 'revenues/history', BETA.id, 2023],
      [-25, 'revenues/history', BETA.id, 2022],
    ]);
    expect(new Set(lines.slice(0, 3).map((l) => l.request_id))).toEqual(new Set([res.headers.get('x-request-id')]));
    // The single call after it was a repeat (1); so is the history again (3 × 1).
    expect(single.cost).toBe(1);
    const again = await t.get('/api/v1/revenues/history?ticker=BETA&last=3', a.key);
    expect([again.cost, again.balance]).toEqual([3, 921]);
  });

  it('bills a covered period without figures 1 and shows it with no records; a period bought alone is a repeat', async () => {
    const a = await t.account({ credits: 100 });
    const res = await t.get(`/api/v1/revenues/history?company_id=${ZETA.id}&from=2020`, a.key);
    expect(res.status).toBe(200);
    const body = res.json<History>();
    expect(body.periods.map((p) => [p.reporting_period, p.records.length])).toEqual([
      [2023, 1],
      [2022, 0],
    ]);
    expect([res.cost, res.balance]).toEqual([26, 74]);
    const b = await t.account({ credits: 100 });
    await t.get('/api/v1/revenues?ticker=BETA&reporting_period=2023', b.key);
    const mixed = await t.get('/api/v1/revenues/history?ticker=BETA&to=2024', b.key);
    expect([mixed.cost, mixed.balance]).toEqual([51, 24]);
  });

  it('selects the last N available periods with last', async () => {
    const a = await t.account();
    const res = await t.get('/api/v1/revenues/history?isin=US000BETA008&last=2', a.key);
    expect(res.json<History>().periods.map((p) => p.reporting_period)).toEqual([2024, 2023]);
    expect(res.cost).toBe(50);
  });

  it('refuses with 402 when the balance does not cover the whole range, charging and buying nothing', async () => {
    const a = await t.account({ credits: 74 });
    const res = await t.get('/api/v1/revenues/history?ticker=BETA&from=2022&to=2024', a.key, PROBLEM);
    expect(res.status).toBe(402);
    expect([res.cost, res.balance]).toEqual([75, 74]);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.json<{ detail: string }>().detail).toContain('costs 75');
    expect(await ledger(a.accountId)).toHaveLength(1 - 1);
    const purchases = await t.db.kysely
      .selectFrom('purchases')
      .select('company_id')
      .where('account_id', '=', a.accountId)
      .execute();
    expect(purchases).toEqual([]);
    // Nothing was bought: the single call is still a first access.
    const single = await t.get('/api/v1/revenues?ticker=BETA&reporting_period=2023', a.key);
    expect([single.cost, single.balance]).toEqual([25, 49]);
  });

  it.each([
    ['ticker=BETA', 'from'],
    ['ticker=BETA&from=2024&to=2022', 'from'],
    ['ticker=BETA&last=2&from=2022', 'last'],
    ['ticker=BETA&from=1999', 'from'],
    ['ticker=BETA&to=2019', 'from'],
    ['ticker=BETA&to=2027', 'to'],
    ['ticker=BETA&last=7', 'last'],
    ['ticker=BETA&last=0', 'last'],
    ['ticker=BETA&from=02022', 'from'],
    ['ticker=BETA&last=2&reporting_period=2023', 'reporting_period'],
    ['from=2022', undefined],
  ])('refuses the range %s with a 400 naming %s, free', async (query, param) => {
    const a = await t.account();
    const res = await t.get(`/api/v1/revenues/history?${query}`, a.key, PROBLEM);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    const problem = res.json<{ status: number; param?: string }>();
    expect(problem.status).toBe(400);
    if (param !== undefined) expect(problem.param).toBe(param);
    expect(await ledger(a.accountId)).toEqual([]);
    const plain = await t.get(`/api/v1/revenues/history?${query}`, a.key);
    expect(plain.headers.get('content-type')).toContain('text/plain');
  });

  it('takes years from 2000, before the single call’s 2020: a range reaching back answers what exists in it', async () => {
    const a = await t.account({ credits: 1000 });
    const res = await t.get('/api/v1/revenues/history?ticker=BETA&from=2000&to=2022', a.key);
    expect(res.status).toBe(200);
    expect(res.json<History>().periods.map((p) => p.reporting_period)).toEqual([2022]);
    expect(res.cost).toBe(25);
    const before = await t.get('/api/v1/revenues/history?ticker=BETA&from=2000&to=2019', a.key, PROBLEM);
    expect(before.status).toBe(404);
    expect(before.json<{ available_periods: number[] }>().available_periods).toEqual([2024, 2023, 2022]);
    // The single call keeps the spec's years, and its 400 names the call for earlier ones.
    const single = await t.get('/api/v1/ghg-emissions?ticker=BETA&reporting_period=2019', a.key);
    expect(single.status).toBe(400);
    expect(single.text).toBe(
      "Invalid parameter 'reporting_period': an integer: a year from 2020 to 2026, or an offset from -6 to -1 (-1 = most recent available period); earlier years: GET /api/v1/ghg-emissions/history?from=2000 (or a batch).",
    );
  });

  it('keeps the order of checks: 401, then 400, then 403, then 404', async () => {
    expect((await t.get('/api/v1/revenues/history?ticker=BETA')).status).toBe(401);
    expect((await t.get('/api/v1/revenues/history?ticker=BETA&last=9')).status).toBe(401);
    const none = await t.account({ subscription: 'none', credits: 40 });
    expect((await t.get('/api/v1/revenues/history?ticker=BETA&last=9', none.key)).status).toBe(400);
    const forbidden = await t.get('/api/v1/revenues/history?ticker=NOPE&last=2', none.key, PROBLEM);
    expect(forbidden.status).toBe(403);
    expect([forbidden.cost, forbidden.balance]).toEqual([25, 40]);
    expect(forbidden.json<{ required_subscription: string }>().required_subscription).toBe('revenues');
    const revenuesOnly = await t.account({ subscription: 'revenues' });
    expect((await t.get('/api/v1/ghg-intensity/history?ticker=BETA&last=2', revenuesOnly.key)).status).toBe(403);
    const a = await t.account();
    const unknown = await t.get('/api/v1/revenues/history?ticker=NOPE&last=2', a.key, PROBLEM);
    expect(unknown.status).toBe(404);
    const empty = await t.get('/api/v1/revenues/history?ticker=BETA&from=2025', a.key, PROBLEM);
    expect(empty.status).toBe(404);
    expect(empty.json<{ available_periods: number[] }>().available_periods).toEqual([2024, 2023, 2022]);
    expect(await ledger(a.accountId)).toEqual([]);
  });

  it('serves every dataset’s history from the registry', async () => {
    const doc = await (await fetch(`${t.url}/api/v1/openapi.json`)).json();
    const paths = Object.keys((doc as { paths: object }).paths);
    for (const d of DATASETS) expect(paths).toContain(`${d.route.path}/history`);
    const a = await t.account();
    const ghg = await t.get('/api/v1/ghg-emissions/history?ticker=BETA&last=2', a.key);
    expect(ghg.status).toBe(404);
    expect(ghg.cost).toBeNull();
  });

  it('answers the test token with mock periods for free, and each magic ticker as live would', async () => {
    const res = await t.get('/api/v1/ghg-emissions/history?ticker=ANY&from=2023', TEST_TOKEN);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-test-mode')).toBe('true');
    expect([res.cost, res.balance]).toEqual([0, 0]);
    const body = res.json<History>();
    expect(body.periods.length).toBeGreaterThan(0);
    expect(body.periods.every((p) => p.records.length > 0 && p.reporting_period >= 2023)).toBe(true);
    const noData = await t.get('/api/v1/revenues/history?ticker=MOCK204&last=2', TEST_TOKEN);
    expect(noData.json<History>().periods.map((p) => p.records)).toEqual([[], []]);
    const short = await t.get('/api/v1/revenues/history?ticker=MOCK402&last=2', TEST_TOKEN);
    expect([short.status, short.cost, short.balance]).toEqual([402, 50, 0]);
    expect((await t.get('/api/v1/revenues/history?ticker=MOCK403&last=2', TEST_TOKEN)).status).toBe(403);
    const unknown = await t.get('/api/v1/revenues/history?ticker=MOCK404&last=2', TEST_TOKEN);
    expect([unknown.status, unknown.headers.get('x-test-mode')]).toEqual([404, 'true']);
    expect((await t.get('/api/v1/revenues/history?ticker=MOCK404', TEST_TOKEN)).status).toBe(400);
  });
});
