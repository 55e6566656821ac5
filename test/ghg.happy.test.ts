import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TEST_TOKEN } from '../src/auth/test-token.js';
import { dialects } from './support/dialects.js';
import { ALPHA, BETA, doc, ghgDoc, ZETA } from './support/fixture.js';
import { GHG_BUNDLE, PUBLIC_URL, startApp, type TestApp } from './support/test-app.js';

interface EmissionRecord {
  year_of_disclosure: number;
  reporting_period: number;
  scope: string;
  value: number;
  unit: string;
  company_id: string;
  document_id: string;
  traceability_source_url: string;
}

interface IntensityRecord {
  reporting_period: number;
  scope: string;
  value: number;
  unit: string;
  company_id: string;
  emissions_document_id: string;
  revenue_document_id: string;
  traceability_source_url: string;
}

describe.each(dialects())('GHG emissions and intensity, happy paths (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(dialect, { more: [GHG_BUNDLE] });
  });
  afterAll(() => t.close());
  afterEach(() => t.expectLedgersBalance());

  it('returns every emission figure, first reported and restated, ordered by scope, disclosure, document; in whole tCO2e', async () => {
    const { key } = await t.account();
    const res = await t.get('/api/v1/ghg-emissions?ticker=BETA&reporting_period=2023', key);
    expect([res.status, res.cost]).toEqual([200, 25]);
    const records = res.json<EmissionRecord[]>();
    expect(records.map((r) => [r.scope, r.year_of_disclosure, r.document_id, r.value])).toEqual([
      ['1', 2024, ghgDoc(1), 1_234_500], // 1.2345 Mt
      ['1', 2025, ghgDoc(2), 1_240_000], // restated in the next report
      ['2-location', 2024, ghgDoc(1), 456_700], // 456.7 kt
      ['2-market', 2024, ghgDoc(1), 300_000],
      ['3', 2024, ghgDoc(1), 12_500_000], // 12.5 Mt
    ]);
    for (const r of records) {
      expect(Object.keys(r).sort()).toEqual(
        [
          'company_id',
          'document_id',
          'reporting_period',
          'scope',
          'traceability_source_url',
          'unit',
          'value',
          'year_of_disclosure',
        ].sort(),
      );
      expect(r).toMatchObject({ unit: 'tCO2e', company_id: BETA.id, reporting_period: 2023 });
      expect(r.traceability_source_url).toMatch(new RegExp(`^${PUBLIC_URL}/trace/[0-9a-f-]{36}$`));
    }
  });

  it('rounds a fraction of a tonne half away from zero, after converting the unit', async () => {
    const { key } = await t.account();
    const res = await t.get('/api/v1/ghg-emissions?ticker=BETA&reporting_period=2024', key);
    expect(res.json<EmissionRecord[]>().map((r) => [r.scope, r.value])).toEqual([
      ['1', 1_200_001], // 1200000.5 t
      ['2-location', 3], // 0.0025 kt = 2.5 t
    ]);
  });

  it('counts offsets over the periods with emission figures, and answers 204 for a covered period without one', async () => {
    const { key } = await t.account({ credits: 100 });
    const latest = await t.get('/api/v1/ghg-emissions?ticker=BETA&reporting_period=-1', key);
    expect(latest.json<EmissionRecord[]>()[0]?.reporting_period).toBe(2024);
    const second = await t.get('/api/v1/ghg-emissions?ticker=BETA&reporting_period=-2', key);
    expect(second.json<EmissionRecord[]>()[0]?.reporting_period).toBe(2023);
    // Alpha's climate report covers 2023 but holds only a 2022 figure.
    const noData = await t.get(`/api/v1/ghg-emissions?lei=${ALPHA.lei}&reporting_period=2023`, key);
    expect([noData.status, noData.cost, noData.text]).toEqual([204, 1, '']);
    const alpha = await t.get(`/api/v1/ghg-emissions?lei=${ALPHA.lei}&reporting_period=-2`, key);
    expect(alpha.json<EmissionRecord[]>().map((r) => [r.reporting_period, r.value])).toEqual([[2022, 85_250]]);
    // Zeta has revenue documents only: they cover no emission period.
    const zeta = await t.get(`/api/v1/ghg-emissions?company_id=${ZETA.id}&reporting_period=2023`, key);
    expect(zeta.status).toBe(404);
  });

  it('divides the latest emissions by the latest revenue in USD millions, per scope, to 3 decimals', async () => {
    const { key } = await t.account();
    const res = await t.get('/api/v1/ghg-intensity?ticker=BETA&reporting_period=2023', key);
    expect([res.status, res.cost]).toEqual([200, 25]);
    const records = res.json<IntensityRecord[]>();
    // Revenue 2023 as restated in doc 4: 8,400,000,000 USD.
    expect(records.map((r) => [r.scope, r.value, r.emissions_document_id, r.revenue_document_id])).toEqual([
      ['1', 147.619, ghgDoc(2), doc(4)], // 1,240,000 / 8,400 (the restated figure)
      ['2-location', 54.369, ghgDoc(1), doc(4)],
      ['2-market', 35.714, ghgDoc(1), doc(4)],
      ['3', 1488.095, ghgDoc(1), doc(4)],
    ]);
    for (const r of records) {
      expect(Object.keys(r).sort()).toEqual(
        [
          'company_id',
          'emissions_document_id',
          'reporting_period',
          'revenue_document_id',
          'scope',
          'traceability_source_url',
          'unit',
          'value',
        ].sort(),
      );
      expect(r).toMatchObject({ unit: 'tCO2e/USD million', company_id: BETA.id, reporting_period: 2023 });
      expect(r.traceability_source_url).toMatch(new RegExp(`^${PUBLIC_URL}/trace/[0-9a-f-]{36}~[0-9a-f-]{36}$`));
    }
    const y2024 = await t.get('/api/v1/ghg-intensity?ticker=BETA&reporting_period=2024', key);
    expect(y2024.json<IntensityRecord[]>().map((r) => [r.scope, r.value])).toEqual([
      ['1', 133.333], // 1,200,001 / 9,000
      ['2-location', 0], // 3 / 9,000 = 0.000333…
    ]);
  });

  it('converts a revenue in another currency to USD first (Alpha, EUR)', async () => {
    const { key } = await t.account();
    const revenue = await t.get(`/api/v1/revenues?company_id=${ALPHA.id}&reporting_period=2022`, key);
    const latest = revenue.json<Array<{ value: number; document_id: string }>>().at(-1);
    expect(latest?.document_id).toBe(doc(2));
    const res = await t.get(`/api/v1/ghg-intensity?company_id=${ALPHA.id}&reporting_period=2022`, key);
    const expected = Math.round((85_250 / ((latest?.value ?? 1) / 1_000_000)) * 1000) / 1000;
    expect(res.json<IntensityRecord[]>().map((r) => [r.scope, r.value])).toEqual([['1', expected]]);
  });

  it('answers 204 when the emissions or the revenue of a covered period are missing', async () => {
    const { key } = await t.account({ credits: 100 });
    // Revenue, and an emission report for 2023 without a 2023 figure.
    const res = await t.get(`/api/v1/ghg-intensity?company_id=${ALPHA.id}&reporting_period=2023`, key);
    expect([res.status, res.cost]).toEqual([204, 1]);
  });

  it('covers only the periods of both a financial and a sustainability report: one alone is no intensity period', async () => {
    const { key } = await t.account({ credits: 100 });
    for (const query of [
      'ticker=BETA&reporting_period=2022', // an annual report, no sustainability report
      `company_id=${ZETA.id}&reporting_period=2023`, // annual reports only
    ]) {
      const res = await t.get(`/api/v1/ghg-intensity?${query}`, key);
      expect(res.status, query).toBe(404);
    }
    const periods = await t.get(`/api/v1/ghg-intensity/periods?ticker=BETA`, key);
    expect(periods.json<{ reporting_periods: number[] }>().reporting_periods).toEqual([2024, 2023]);
  });

  it('bills each dataset apart: revenues bought do not make emissions a repeat, nor emissions the intensity', async () => {
    const { key, accountId } = await t.account({ credits: 200 });
    const call = (endpoint: string) => t.get(`/api/v1/${endpoint}?ticker=BETA&reporting_period=2023`, key);
    expect((await call('revenues')).cost).toBe(25);
    expect((await call('ghg-emissions')).cost).toBe(25);
    expect((await call('ghg-intensity')).cost).toBe(25);
    expect((await call('revenues')).cost).toBe(1);
    expect((await call('ghg-emissions')).cost).toBe(1);
    const last = await call('ghg-intensity');
    expect([last.cost, last.balance]).toEqual([1, 122]);
    const purchases = await t.db.kysely
      .selectFrom('purchases')
      .select(['dataset', 'company_id', 'reporting_period'])
      .where('account_id', '=', accountId)
      .orderBy('dataset')
      .execute();
    expect(purchases).toEqual(
      ['ghg-emissions', 'ghg-intensity', 'revenues'].map((dataset) => ({ dataset, company_id: BETA.id, reporting_period: 2023 })),
    );
    const ledger = await t.db.kysely
      .selectFrom('ledger')
      .select(['amount', 'endpoint'])
      .where('account_id', '=', accountId)
      .where('kind', '=', 'charge')
      .orderBy('entry_id')
      .execute();
    expect(ledger.map((e) => [e.endpoint, Number(e.amount)])).toEqual([
      ['revenues', -25],
      ['ghg-emissions', -25],
      ['ghg-intensity', -25],
      ['revenues', -1],
      ['ghg-emissions', -1],
      ['ghg-intensity', -1],
    ]);
  });

  it('charges 25 once for N concurrent first accesses to one company-period of one dataset', async () => {
    for (const endpoint of ['ghg-emissions', 'ghg-intensity']) {
      const { key, accountId } = await t.account({ credits: 1000 });
      const n = 30;
      const answers = await Promise.all(
        Array.from({ length: n }, () => t.get(`/api/v1/${endpoint}?ticker=BETA&reporting_period=2024`, key)),
      );
      expect(answers.every((a) => a.status === 200)).toBe(true);
      expect(answers.map((a) => a.cost).sort((a, b) => (b ?? 0) - (a ?? 0))).toEqual([25, ...Array(n - 1).fill(1)]);
      const account = await t.db.kysely
        .selectFrom('accounts')
        .select('balance')
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      expect(Number(account?.balance)).toBe(1000 - 25 - (n - 1));
    }
  });

  it('charges concurrent first accesses to one company-period across datasets 25 each, once', async () => {
    const { key, accountId } = await t.account({ credits: 1000 });
    const endpoints = ['revenues', 'ghg-emissions', 'ghg-intensity'];
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => t.get(`/api/v1/${endpoints[i % 3]}?ticker=BETA&reporting_period=2023`, key)),
    );
    expect(answers.filter((a) => a.cost === 25).length).toBe(3);
    expect(answers.filter((a) => a.cost === 1).length).toBe(27);
    const account = await t.db.kysely
      .selectFrom('accounts')
      .select('balance')
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    expect(Number(account?.balance)).toBe(1000 - 75 - 27);
  });

  it('answers the test token with deterministic mock data, free, validated, written nowhere', async () => {
    for (const endpoint of ['ghg-emissions', 'ghg-intensity']) {
      const a = await t.get(`/api/v1/${endpoint}?ticker=ANY&reporting_period=2023`, TEST_TOKEN);
      const b = await t.get(`/api/v1/${endpoint}?ticker=ANY&reporting_period=2023`, TEST_TOKEN);
      expect([a.status, a.cost, a.balance]).toEqual([200, 0, 0]);
      expect(a.text).toBe(b.text);
      const records = a.json<Array<{ scope: string; value: number; company_id: string }>>();
      expect(records.map((r) => r.scope)).toEqual(['1', '2-location', '2-market', '3']);
      for (const r of records) expect(r.value).toBeGreaterThan(0);
      const revenue = await t.get('/api/v1/revenues?ticker=ANY&reporting_period=2023', TEST_TOKEN);
      expect(records[0]?.company_id).toBe(revenue.json<Array<{ company_id: string }>>()[0]?.company_id);
      expect((await t.get(`/api/v1/${endpoint}?ticker=ANY&reporting_period=2019`, TEST_TOKEN)).status).toBe(400);
    }
    const mock = (await t.get('/api/v1/ghg-intensity?ticker=ANY&reporting_period=-1', TEST_TOKEN)).json<IntensityRecord[]>();
    expect(mock[0]?.reporting_period).toBe(2025);
    const purchases = await t.db.kysely
      .selectFrom('purchases')
      .select('company_id')
      .where('company_id', 'like', '%mock%')
      .execute();
    expect(purchases).toEqual([]);
  });
});
