import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_TOKEN } from '../src/auth/test-token.js';
import { ConsoleClient } from './support/console-client.js';
import { DATASETS } from './support/datasets.js';
import { dialects } from './support/dialects.js';
import { startApp, type TestApp } from './support/test-app.js';

async function snapshot(t: TestApp) {
  const k = t.db.kysely;
  const count = async (table: 'ledger' | 'purchases' | 'accounts' | 'api_keys') =>
    Number(
      (
        await k
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    ledger: await count('ledger'),
    purchases: await count('purchases'),
    accounts: await count('accounts'),
    keys: await count('api_keys'),
  };
}

describe.each(dialects())('test mode (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(dialect);
  });
  afterAll(() => t.close());

  it('returns deterministic mock data at no charge, writing nothing', async () => {
    const before = await snapshot(t);
    for (const path of [
      '/api/v1/revenues?ticker=AAPL&reporting_period=-1',
      '/api/v1/revenues?isin=US0378331005&reporting_period=2023',
      '/api/v1/companies/search?query=apple',
      '/api/v1/companies/list',
    ]) {
      const a = await t.get(path, TEST_TOKEN);
      const b = await t.get(path, TEST_TOKEN);
      expect(a.status, path).toBe(200);
      expect(a.text).toBe(b.text);
      expect(a.cost).toBe(0);
      if (path.includes('companies')) expect(a.text).toContain('Mock');
    }
    expect(await snapshot(t)).toEqual(before);
  });

  it('answers for the company_id asked, so a mock search result can be followed to its figures', async () => {
    const [found] = (await t.get('/api/v1/companies/search?query=apple', TEST_TOKEN)).json<Array<{ company_id: string }>>();
    const id = found?.company_id ?? '';
    for (const path of [
      `/api/v1/revenues?company_id=${id}&reporting_period=-1`,
      `/api/v1/revenues?company_id=${id.toUpperCase()}&reporting_period=2023`,
      `/api/v1/ghg-emissions?company_id=${id}&reporting_period=2023`,
      `/api/v1/ghg-intensity?company_id=${id}&reporting_period=2023`,
    ]) {
      const res = await t.get(path, TEST_TOKEN);
      expect(res.status, path).toBe(200);
      for (const record of res.json<Array<{ company_id: string }>>()) expect(record.company_id, path).toBe(id);
    }
    expect((await t.get(`/api/v1/revenues/periods?company_id=${id}`, TEST_TOKEN)).json()).toMatchObject({ company_id: id });
  });

  it('gives plausible revenue records for the requested period', async () => {
    const res = await t.get('/api/v1/revenues?ticker=MSFT&reporting_period=2022', TEST_TOKEN);
    const [r] = res.json<Array<{ reporting_period: number; value: number; ccy: string }>>();
    expect(r?.reporting_period).toBe(2022);
    expect(r?.ccy).toBe('USD');
    expect(r?.value).toBeGreaterThan(0);
  });

  it('still validates parameters', async () => {
    expect((await t.get('/api/v1/revenues?ticker=AAPL&reporting_period=2019', TEST_TOKEN)).status).toBe(400);
    expect((await t.get('/api/v1/revenues?reporting_period=2020', TEST_TOKEN)).status).toBe(400);
    expect((await t.get('/api/v1/companies/search?query=', TEST_TOKEN)).status).toBe(400);
  });

  it('behaves like live: each magic ticker gives its status on every dataset, writing nothing', async () => {
    const before = await snapshot(t);
    for (const { name: dataset, subscription } of DATASETS) {
      const call = (ticker: string, headers: Record<string, string> = {}) =>
        t.get(`/api/v1/${dataset}?ticker=${ticker}&reporting_period=2023`, TEST_TOKEN, headers);
      const noData = await call('MOCK204');
      expect([noData.status, noData.text, noData.cost, noData.balance], dataset).toEqual([204, '', 0, 0]);
      const poor = await call('mock402');
      expect([poor.status, poor.cost, poor.balance], dataset).toEqual([402, 25, 0]);
      expect(poor.text).toBe('Insufficient credits: this call costs 25, the balance is 0.');
      const forbidden = await call('MOCK403', { accept: 'application/problem+json' });
      expect(forbidden.status, dataset).toBe(403);
      expect(forbidden.json()).toMatchObject({ required_subscription: subscription });
      const unknown = await call('MOCK404');
      expect([unknown.status, unknown.text], dataset).toEqual([404, 'No company matches the given ticker.']);
      for (const res of [noData, poor, forbidden, unknown]) expect(res.headers.get('x-test-mode'), dataset).toBe('true');
      // The free periods endpoint meets the 403 and the 404 only.
      const periods = (ticker: string) => t.get(`/api/v1/${dataset}/periods?ticker=${ticker}`, TEST_TOKEN);
      expect((await periods('MOCK403')).status).toBe(403);
      expect((await periods('MOCK404')).status).toBe(404);
      expect((await periods('MOCK402')).status).toBe(200);
    }
    expect(await snapshot(t)).toEqual(before);
  });

  it('says it is test mode on every answer, and its trace links lead to a page saying the data is mock', async () => {
    const res = await t.get('/api/v1/revenues?ticker=AAPL&reporting_period=2023', TEST_TOKEN);
    expect(res.headers.get('x-test-mode')).toBe('true');
    const a = await t.account();
    expect((await t.get('/api/v1/revenues?ticker=BETA&reporting_period=2023', a.key)).headers.get('x-test-mode')).toBeNull();
    const urls = [
      ...res.json<Array<{ traceability_source_url: string }>>(),
      ...(await t.get('/api/v1/ghg-emissions?ticker=AAPL&reporting_period=2023', TEST_TOKEN)).json<
        Array<{ traceability_source_url: string }>
      >(),
      ...(await t.get('/api/v1/ghg-intensity?ticker=AAPL&reporting_period=2023', TEST_TOKEN)).json<
        Array<{ traceability_source_url: string }>
      >(),
    ].map((r) => r.traceability_source_url);
    expect(urls.length).toBeGreaterThan(5);
    for (const url of urls) {
      const path = new URL(url).pathname;
      const page = await fetch(t.url + path);
      expect(page.status, path).toBe(200);
      expect(await page.text()).toContain('This data point is mock data');
      const json = await fetch(t.url + path, { headers: { accept: 'application/json' } });
      expect(await json.json()).toMatchObject({ mock: true, data_point_id: path.slice('/trace/'.length) });
    }
  });

  it('answers a mock record’s trace id on /api/v1/trace/{id} too, free and writing nothing; a malformed one stays a 400', async () => {
    const a = await t.account();
    const before = await snapshot(t);
    const res = await t.get('/api/v1/ghg-intensity?ticker=AAPL&reporting_period=2023', TEST_TOKEN);
    const revenue = await t.get('/api/v1/revenues?ticker=AAPL&reporting_period=2023', TEST_TOKEN);
    const ids = [
      ...res.json<Array<{ traceability_source_url: string }>>(),
      ...revenue.json<Array<{ traceability_source_url: string }>>(),
    ].map((r) => new URL(r.traceability_source_url).pathname.slice('/trace/'.length));
    // An intensity's id joins two mock ids with "~"; a revenue's is one.
    expect(ids.some((id) => id.includes('~'))).toBe(true);
    expect(ids.some((id) => !id.includes('~'))).toBe(true);
    for (const id of ids) {
      const api = await t.get(`/api/v1/trace/${id}`, TEST_TOKEN);
      expect(api.status, id).toBe(200);
      expect(api.headers.get('x-credit-cost')).toBe('0');
      expect(api.json()).toEqual({
        data_point_id: id,
        mock: true,
        detail: expect.stringContaining('mock data'),
        traceability_source_url: expect.stringMatching(new RegExp(`^http://[^/]+/trace/${id}$`)),
      });
    }
    // A key's caller following a mock link learns the same; a mock id of the wrong shape is a 400.
    expect((await t.get(`/api/v1/trace/${ids[0] ?? ''}`, a.key)).json()).toMatchObject({ mock: true });
    expect((await t.get('/api/v1/trace/mock-123', TEST_TOKEN)).status).toBe(400);
    expect((await t.get(`/api/v1/trace/${ids[0] ?? ''}~`, TEST_TOKEN)).status).toBe(400);
    expect(await snapshot(t)).toEqual(before);
  });

  it('has the shapes of live answers: some company-periods restated, several currencies', async () => {
    const answers = await Promise.all(
      ['AAPL', 'MSFT', 'SAP', 'NESN', 'TM', 'BP', 'SHEL', 'HSBA', 'SIE', 'ASML', 'NVDA', 'TSLA'].map((ticker) =>
        t.get(`/api/v1/revenues?ticker=${ticker}&reporting_period=2022`, TEST_TOKEN),
      ),
    );
    const bodies = answers.map((r) => r.json<Array<{ original_ccy: string; year_of_disclosure: number; document_id: string }>>());
    expect(bodies.some((b) => b.length === 2)).toBe(true);
    for (const b of bodies.filter((x) => x.length === 2)) {
      expect(b[0]?.year_of_disclosure).toBeLessThan(b[1]?.year_of_disclosure ?? 0);
      expect(b[0]?.document_id).not.toBe(b[1]?.document_id);
    }
    expect(new Set(bodies.flat().map((r) => r.original_ccy)).size).toBeGreaterThan(1);
  });

  it('tells live keys and the test token apart: a claim in each payload, shown in the console', async () => {
    const payload = (token: string) => JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as object;
    const a = await t.account({ password: 'test mode console password' });
    expect(payload(a.key)).toMatchObject({ mode: 'live', sub: a.accountId });
    expect(payload(TEST_TOKEN)).toMatchObject({ sub: 'test-mode', mock: true });
    const client = new ConsoleClient(t.url);
    expect((await client.signIn(a.email, 'test mode console password')).status).toBe(303);
    const keys = await client.get('/account/keys');
    expect(keys.text).toContain('"mode":"live"');
    expect(keys.text).toContain(TEST_TOKEN);
    expect(keys.text).toContain('X-Test-Mode: true');
  });
});
