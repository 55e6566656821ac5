import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_TOKEN } from '../src/auth/test-token.js';
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
});
