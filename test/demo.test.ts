import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchKey } from '../src/catalog/search/match-key.js';
import { DEMO_BUNDLE_DIR } from '../src/cli/open-database.js';
import { apiGet } from './support/api-client.js';
import { corpdata, freePort, startServer } from './support/cli.js';
import { ConsoleClient } from './support/console-client.js';
import { dialects } from './support/dialects.js';
import { startApp, type TestAccount, type TestApp } from './support/test-app.js';
import { createTestDatabase } from './support/test-database.js';

interface RevenueRecord {
  reporting_period: number;
  value: number;
  original_value: number | null;
  original_ccy: string;
}

/** Every migration, in order: what `migrate` applies to a new database. */
const MIGRATIONS = [
  '001-initial',
  '002-sec-filings',
  '003-datasets',
  '004-ledger-rowid',
  '005-charge-function',
  '006-charge-all',
  '007-document-kind',
  '008-filing-main-document',
  '009-ledger-detail',
  '010-document-source',
  '011-esef-index',
  '012-sync-state',
  '013-net-income',
  '014-figure-source-detail',
  '015-charge-generic-plans',
  '016-ledger-adjustment',
  '017-charge-one-debit',
  '020-events',
  '021-freshness',
  '022-company-identifiers',
];

describe.each(dialects())('the demo dataset (%s)', (dialect) => {
  let t: TestApp;
  let caller: TestAccount;
  beforeAll(async () => {
    t = await startApp(dialect, { bundle: DEMO_BUNDLE_DIR });
    caller = await t.account({ credits: 100_000 });
  });
  afterAll(() => t.close());

  it('serves real figures as the sources report them', async () => {
    const wabtec = await t.get('/api/v1/revenues?ticker=WAB&reporting_period=2022', caller.key);
    expect(wabtec.json<RevenueRecord[]>()).toEqual([expect.objectContaining({ value: 8_362_000_000, original_ccy: 'USD' })]);
    const adidas = await t.get('/api/v1/revenues?ticker=ADS&mic_code=XETR&reporting_period=2023', caller.key);
    const [record] = adidas.json<RevenueRecord[]>();
    expect(record).toMatchObject({ original_value: 21_427_000_000, original_ccy: 'EUR' });
    expect(record?.value).toBeGreaterThan(21_427_000_000);
  });

  it('serves company-reported emissions, each from its report, and their intensity', async () => {
    // Apple's Environmental Progress Report 2021, page 67 (Carbon Gap's set): Scope 1 2020 = 47,430 t.
    const apple = await t.get('/api/v1/ghg-emissions?ticker=AAPL&reporting_period=2020', caller.key);
    expect(apple.status).toBe(200);
    const records = apple.json<Array<{ scope: string; value: number; traceability_source_url: string }>>();
    expect(records.find((r) => r.scope === '1')?.value).toBe(47_430);
    const trace = await new ConsoleClient(t.url).get(new URL(records[0]?.traceability_source_url ?? '').pathname);
    expect(trace.text).toContain('href="https://www.apple.com/environment/pdf/Apple_Environmental_Progress_Report_2021.pdf"');
    expect(trace.text).toContain('p. 67');
    const figures = await t.db.kysely.selectFrom('ghg_points').select(['company_id']).execute();
    expect(figures.length).toBeGreaterThan(400);
    expect(new Set(figures.map((f) => f.company_id)).size).toBeGreaterThan(100);
  });

  it('serves the figures of the SEC filings beside the reference data, with their filing', async () => {
    // Microsoft's 10-K for the fiscal year ended 30 June 2020: total revenue $143,015 million.
    const ms = await t.get('/api/v1/revenues?ticker=MSFT&reporting_period=2020', caller.key);
    expect(ms.json<RevenueRecord[]>()).toEqual([
      expect.objectContaining({ reporting_period: 2020, value: 143_015_000_000, original_ccy: 'USD' }),
    ]);
    // SEC's bulk companyfacts of 351 large filers: Apple's fiscal 2025, ended 27 September 2025.
    const apple = await t.get('/api/v1/revenues?ticker=AAPL&reporting_period=-1', caller.key);
    expect(apple.json<RevenueRecord[]>()).toEqual([
      expect.objectContaining({ reporting_period: 2025, value: 416_161_000_000, original_ccy: 'USD' }),
    ]);
    const withRevenue = await t.db.kysely
      .selectFrom('revenue_points')
      .select((eb) => eb.fn.count<number>('company_id').distinct().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(withRevenue.n)).toBeGreaterThanOrEqual(380);
    // Snowflake's fiscal 2025 ended 31 January 2025.
    const snow = await t.get('/api/v1/revenues?ticker=SNOW&reporting_period=2025', caller.key);
    expect(snow.json<RevenueRecord[]>()).toEqual([expect.objectContaining({ value: 3_626_396_000 })]);
    const cik = await t.db.kysely.selectFrom('companies').select('cik').where('name', '=', 'Microsoft').executeTakeFirst();
    expect(cik?.cik).toBe('0000789019');
  });

  it('finds companies by name and ticker across markets', async () => {
    const search = async (q: string) =>
      (await t.get(`/api/v1/companies/search?query=${encodeURIComponent(q)}`, caller.key)).json<
        Array<{ company_name: string; ticker: string }>
      >();
    expect((await search('Siemens'))[0]?.ticker).toBe('SIE');
    expect((await search('AAPL'))[0]?.company_name).toBe('Apple Inc.');
    expect((await search('adidas'))[0]?.ticker).toBe('ADS');
    // A CIK as the SEC's files write it (ten digits) and as its pages do (no leading zeros).
    expect((await search('0000789019'))[0]?.ticker).toBe('MSFT');
    expect((await search('789019'))[0]?.ticker).toBe('MSFT');
  });

  it('holds one company per entity: its listings on several markets answer with one company and its figures', async () => {
    const periods = async (query: string) => {
      const res = await t.get(`/api/v1/revenues/periods?${query}`, caller.key);
      expect(res.status, query).toBe(200);
      return res.json<{ company_id: string; reporting_periods: number[] }>();
    };
    const nameOf = async (companyId: string) =>
      (await t.db.kysely.selectFrom('companies').select('name').where('company_id', '=', companyId).executeTakeFirstOrThrow())
        .name;
    // OpenText files with the SEC as OPEN TEXT CORP (Nasdaq) and is at home in Toronto.
    const otex = await periods('ticker=OTEX');
    expect(otex.reporting_periods.length).toBeGreaterThan(0);
    expect((await periods('ticker=OTEX&mic_code=XTSE')).company_id).toBe(otex.company_id);
    // WPP's figures come from its London listing; the plain ticker is its NYSE listing.
    const wpp = await periods('ticker=WPP');
    expect((await periods('ticker=WPP&mic_code=XLON')).company_id).toBe(wpp.company_id);
    const wpp2023 = await t.get('/api/v1/revenues?ticker=WPP&reporting_period=2023', caller.key);
    expect(wpp2023.json<RevenueRecord[]>()).toEqual([
      expect.objectContaining({ original_value: 14_844_800_000, original_ccy: 'GBP' }),
    ]);
    for (const [a, b] of [
      ['ticker=SHEL&mic_code=XNYS', 'ticker=SHEL&mic_code=XLON'],
      ['ticker=NESTLEIND&mic_code=XNSE', 'ticker=NESTLEIND&mic_code=XBOM'],
      ['ticker=SAP&mic_code=XNYS', 'ticker=SAP&mic_code=XETR'],
      ['ticker=HSBC&mic_code=XNYS', 'ticker=HSBA&mic_code=XLON'],
    ] as const) {
      expect((await periods(a)).company_id, a).toBe((await periods(b)).company_id);
    }
    // A plain ticker: the company listed on the exchange first by market capitalization.
    expect(await nameOf((await periods('ticker=MRK')).company_id)).toBe('Merck & Co.');
    expect(await nameOf((await periods('ticker=ADM')).company_id)).toMatch(/^Archer[- ]Daniels[- ]Midland/);
    expect(await nameOf((await periods('ticker=EQT')).company_id)).toBe('EQT Corporation');
    expect(await nameOf((await periods('ticker=AAL')).company_id)).toBe('American Airlines Group Inc.');
    const search = (await t.get('/api/v1/companies/search?query=open%20text', caller.key)).json<Array<{ company_id: string }>>();
    expect(search.filter((c) => c.company_id === otex.company_id)).toHaveLength(1);
    // Namesakes a reviewer found to be two issuers stay apart (src/demo/entity-review.ts).
    expect((await periods('ticker=ITP&mic_code=XPAR')).company_id).not.toBe(
      (await periods('ticker=IPAR&mic_code=XNGS')).company_id,
    );
  });

  it('has fewer than 1% of companies sharing a normalized name with another of the same country', async () => {
    const rows = await t.db.kysely.selectFrom('companies').select(['name', 'country']).execute();
    const byKey = new Map<string, number>();
    for (const r of rows) {
      if (r.country === null) continue;
      const key = `${matchKey(r.name)}|${r.country}`;
      byKey.set(key, (byKey.get(key) ?? 0) + 1);
    }
    const sharing = [...byKey.values()].filter((n) => n > 1).reduce((a, n) => a + n, 0);
    expect(sharing / rows.length).toBeLessThan(0.01);
  });

  it('lists thousands of companies', async () => {
    const list = await t.get('/api/v1/companies/list', caller.key);
    expect(list.json<unknown[]>().length).toBeGreaterThan(5_000);
    // REPORT.txt's counts are what the API serves.
    const report = readFileSync(join(DEMO_BUNDLE_DIR, '..', 'REPORT.txt'), 'utf8');
    const count = (re: RegExp) => Number(re.exec(report)?.[1]);
    expect(list.json<unknown[]>().length).toBe(count(/^companies ([0-9]+)$/m));
    const points = await t.db.kysely.selectFrom('revenue_points').select(['company_id']).execute();
    expect(points.length).toBe(count(/^data points ([0-9]+) /m));
    expect(new Set(points.map((p) => p.company_id)).size).toBe(count(/^data points [0-9]+ \(of ([0-9]+) companies\)$/m));
  });
});

describe.each(dialects())('seeding a fresh database (%s)', (dialect) => {
  it('is served by a first `serve` to an operator-made account: API key, demo figure and console sign-in', async () => {
    const database = await createTestDatabase(dialect);
    const env = { CORPDATA_DATABASE: database.url };
    const server = await startServer(env, await freePort());
    try {
      const email = `operator-${dialect}@example.com`;
      const made = await corpdata(
        ['accounts', 'create', '--email', email, '--credits', '1000', '--password', 'demo-password-1'],
        env,
      );
      expect(made.code, made.stderr).toBe(0);
      const { api_key } = (await corpdata(['keys', 'create', email], env)).json<{ api_key: string }>();
      const res = await apiGet(server.url, '/api/v1/revenues?ticker=MSFT&reporting_period=2020', api_key);
      expect([res.status, res.headers.get('x-credit-cost'), res.headers.get('x-credit-balance')]).toEqual([200, '25', '975']);
      const [latest] = res.json<RevenueRecord[]>();
      expect(latest).toMatchObject({ reporting_period: 2020, value: 143_015_000_000, original_ccy: 'USD' });
      expect((await new ConsoleClient(server.url).signIn(email, 'demo-password-1')).status).toBe(303);
    } finally {
      await server.stop();
      await database.drop();
    }
  }, 120_000);

  it('seeds the demo dataset on the first migrate only, and never a database created empty', async () => {
    const seeded = await createTestDatabase(dialect);
    const first = await corpdata(['migrate'], { CORPDATA_DATABASE: seeded.url });
    expect(first.json()).toEqual({
      migrated: MIGRATIONS,
      seeded: 'demo',
    });
    expect((await corpdata(['migrate'], { CORPDATA_DATABASE: seeded.url })).json()).toEqual({ migrated: [], seeded: null });
    await seeded.drop();

    const empty = await createTestDatabase(dialect);
    expect((await corpdata(['migrate'], { CORPDATA_DATABASE: empty.url, CORPDATA_DEMO: 'off' })).json()).toEqual({
      migrated: MIGRATIONS,
      seeded: null,
    });
    expect((await corpdata(['migrate'], { CORPDATA_DATABASE: empty.url, CORPDATA_DEMO: 'on' })).json()).toEqual({
      migrated: [],
      seeded: null,
    });
    await empty.drop();
  }, 60_000);
});
