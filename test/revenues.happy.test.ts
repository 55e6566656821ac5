import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from './support/dialects.js';
import { ALPHA, BETA, DELTA, doc, EPSILON, TWIN_ONE, TWIN_TWO, ZETA } from './support/fixture.js';
import { PUBLIC_URL, startApp, type TestApp } from './support/test-app.js';

interface RevenueRecord {
  year_of_disclosure: number;
  reporting_period: number;
  metric: string;
  value: number;
  ccy: string;
  original_value: number | null;
  original_ccy: string;
  company_id: string;
  document_id: string;
  traceability_source_url: string;
}

describe.each(dialects())('revenues, happy paths (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(dialect);
  });
  afterAll(() => t.close());
  afterEach(() => t.expectLedgersBalance());

  it('returns every data point of a company-period, original and restated, ordered by disclosure', async () => {
    const { key } = await t.account();
    const res = await t.get('/api/v1/revenues?ticker=BETA&reporting_period=2023', key);
    expect(res.status).toBe(200);
    const records = res.json<RevenueRecord[]>();
    expect(records.map((r) => [r.year_of_disclosure, r.document_id, r.value])).toEqual([
      [2024, doc(3), 8362000000],
      [2025, doc(4), 8400000000],
    ]);
    for (const r of records) {
      expect(Object.keys(r).sort()).toEqual(
        [
          'ccy',
          'company_id',
          'document_id',
          'metric',
          'original_ccy',
          'original_value',
          'reporting_period',
          'traceability_source_url',
          'value',
          'year_of_disclosure',
        ].sort(),
      );
      expect(r).toMatchObject({
        metric: 'Total Revenue',
        ccy: 'USD',
        original_ccy: 'USD',
        company_id: BETA.id,
        reporting_period: 2023,
      });
      expect(r.original_value).toBe(r.value);
      expect(r.traceability_source_url).toMatch(new RegExp(`^${PUBLIC_URL}/trace/[0-9a-f-]{36}$`));
    }
  });

  it('normalizes to USD with the yearly rate, rounding half away from zero', async () => {
    const { key } = await t.account();
    const res = await t.get(`/api/v1/revenues?company_id=${ALPHA.id}&reporting_period=2023`, key);
    expect(res.status).toBe(200);
    const [r] = res.json<RevenueRecord[]>();
    // 21,427,000,000 EUR × 1.08127 USD/EUR
    expect(r).toMatchObject({ original_value: 21427000000, original_ccy: 'EUR', value: 23168372290 });
  });

  it('converts sub-unit currencies ZAC and ILA through ZAR and ILS', async () => {
    const { key } = await t.account();
    const zac = await t.get(`/api/v1/revenues?company_id=${DELTA.id}&reporting_period=2023`, key);
    expect(zac.json<RevenueRecord[]>()[0]).toMatchObject({
      original_value: 4500000000000,
      original_ccy: 'ZAC',
      value: 2443500000,
    });
    const ila = await t.get(`/api/v1/revenues?company_id=${EPSILON.id}&reporting_period=2023`, key);
    expect(ila.json<RevenueRecord[]>()[0]).toMatchObject({ original_value: 250000000000, original_ccy: 'ILA', value: 677875000 });
  });

  it('resolves offsets against available periods: -1 most recent, -N the N-th', async () => {
    const { key } = await t.account();
    const latest = await t.get('/api/v1/revenues?ticker=BETA&reporting_period=-1', key);
    expect(latest.json<RevenueRecord[]>().map((r) => r.reporting_period)).toEqual([2024]);
    const second = await t.get('/api/v1/revenues?ticker=BETA&reporting_period=-2', key);
    expect(second.json<RevenueRecord[]>().every((r) => r.reporting_period === 2023)).toBe(true);
    const third = await t.get('/api/v1/revenues?ticker=BETA&reporting_period=-3', key);
    expect(third.json<RevenueRecord[]>().map((r) => r.reporting_period)).toEqual([2022]);
    const beyond = await t.get('/api/v1/revenues?ticker=BETA&reporting_period=-4', key);
    expect(beyond.status).toBe(404);
  });

  it('answers 204 for a covered period without a revenue figure, charging 1', async () => {
    const { key } = await t.account({ credits: 10 });
    const res = await t.get(`/api/v1/revenues?company_id=${ZETA.id}&reporting_period=2022`, key);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect([res.cost, res.balance]).toEqual([1, 9]);
  });

  it('matches tickers case-insensitively and prefers the primary, then the earliest-added listing', async () => {
    const { key } = await t.account();
    const lower = await t.get('/api/v1/revenues?ticker=beta&reporting_period=2024', key);
    expect(lower.status).toBe(200);
    const twin = await t.get('/api/v1/revenues?ticker=TWIN&reporting_period=2023', key);
    expect(twin.json<RevenueRecord[]>()[0]?.company_id).toBe(TWIN_ONE.id);
    const onLondon = await t.get('/api/v1/revenues?ticker=TWIN&mic_code=XLON&reporting_period=2023', key);
    expect(onLondon.json<RevenueRecord[]>()[0]?.company_id).toBe(TWIN_TWO.id);
  });

  it('resolves a secondary listing ticker or ISIN to its company', async () => {
    const { key } = await t.account();
    const byTicker = await t.get('/api/v1/revenues?ticker=ALPHY&reporting_period=2023', key);
    expect(byTicker.json<RevenueRecord[]>()[0]?.company_id).toBe(ALPHA.id);
    const byIsin = await t.get(`/api/v1/revenues?isin=${ALPHA.secondaryIsin}&reporting_period=2023`, key);
    expect(byIsin.json<RevenueRecord[]>()[0]?.company_id).toBe(ALPHA.id);
    const byLei = await t.get(`/api/v1/revenues?lei=${ALPHA.lei}&reporting_period=2023`, key);
    expect(byLei.json<RevenueRecord[]>()[0]?.company_id).toBe(ALPHA.id);
  });
});
