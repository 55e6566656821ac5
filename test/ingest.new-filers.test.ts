import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpdata, ingestCli } from './support/cli.js';
import { dialects } from './support/dialects.js';
import { startApp, type TestAccount, type TestApp } from './support/test-app.js';
import { createTestDatabase } from './support/test-database.js';

const INPRO_2020 = fileURLToPath(
  new URL('./fixtures/esef/xbrl-json/xbrl-reports-indexes/25940037UC4MNP02D242-2020-12-31.json', import.meta.url),
);
const INPRO_LEI = '25940037UC4MNP02D242';
const SNOWFLAKE = fileURLToPath(new URL('./fixtures/filings/sec-companyfacts/CIK0001640147.json', import.meta.url));
/** IMF annual average 2020, PLN per USD (shared data, fx_yearly_avg_usd.csv). */
const PLN_PER_USD_2020 = 3.899741666666668;

interface Figure {
  reporting_period: number;
  value: number;
  original_value: number | null;
  original_ccy: string;
  company_id: string;
}

/**
 * design §19.1: no filer's figures are dropped for want of a catalog entry. A filer the catalog
 * does not hold becomes a company from the source's own identity (an ESEF filer's LEI and name, an
 * SEC filer's CIK and name), counted as `companies_added`, and its figures are served; the same
 * input again adds nothing.
 */
describe.each(dialects())('filers no catalog knows (%s)', (dialect) => {
  let t: TestApp;
  let dir: string;
  let buyer: TestAccount;
  const run = (...args: string[]) => ingestCli(t.database.url, ...args);
  /**
   * The server learns of an ingest made by another process through its version watcher: a call is
   * asked again until it answers 200, for a few seconds at most.
   */
  const get = async <T>(path: string): Promise<{ status: number; body: T }> => {
    for (let i = 0; ; i++) {
      const res = await t.get(path, buyer.key);
      if (res.status === 200 || i >= 100) return { status: res.status, body: res.status === 200 ? res.json<T>() : ([] as T) };
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  beforeAll(async () => {
    t = await startApp(dialect, { bundle: null });
    dir = mkdtempSync(join(tmpdir(), 'corpdata-new-filers-'));
    buyer = await t.account({ credits: 10_000 });
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t.close();
  });

  it("serves an ESEF filer's revenue and net income, ingested into a database without companies", async () => {
    // Only a rate: PLN figures are stored with their USD value (design §4).
    const rates = join(dir, 'rates');
    mkdirSync(rates);
    writeFileSync(
      join(rates, 'fx_rates.csv'),
      `currency,year,usd_per_unit,source\nPLN,2020,${(1 / PLN_PER_USD_2020).toFixed(6)},IMF IFS annual average\n`,
    );
    const imported = await corpdata(['import', rates], { CORPDATA_DATABASE: t.database.url, CORPDATA_DEMO: 'off' });
    expect(imported.code, imported.stderr).toBe(0);
    expect(await t.db.kysely.selectFrom('companies').select('company_id').execute()).toEqual([]);

    const r = await run('esef', INPRO_2020);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('warning');
    const summary = r.json<{ companies_matched: number; companies_added: number; skipped: Record<string, number> }>();
    expect(summary).toMatchObject({ filers: 1, companies_matched: 0, companies_added: 1 });
    expect(summary.skipped.unknown_filer).toBeUndefined();

    const companies = await t.db.kysely.selectFrom('companies').select(['name', 'lei', 'cik', 'country']).execute();
    expect(companies).toEqual([{ name: 'INPRO SA', lei: INPRO_LEI, cik: null, country: null }]);
    expect(await t.db.kysely.selectFrom('listings').select('ticker').execute()).toEqual([]);

    const revenue = await get<Figure[]>(`/api/v1/revenues?lei=${INPRO_LEI}&reporting_period=2020`);
    expect(revenue.status).toBe(200);
    expect(revenue.body.map((f) => [f.original_value, f.original_ccy])).toEqual([[382_638_000, 'PLN']]);
    const netIncome = await get<Figure[]>(`/api/v1/net-income?lei=${INPRO_LEI}&reporting_period=2020`);
    expect(netIncome.status).toBe(200);
    // Attributable to the owners of the parent (design §17): ProfitLoss, 67,791,000, includes minorities.
    expect(netIncome.body.map((f) => [f.original_value, f.original_ccy])).toEqual([[63_040_000, 'PLN']]);
    // By the company's id as well as its LEI; the comparative 2019 waits for a PLN 2019 rate, counted.
    const byId = await get<Figure[]>(`/api/v1/revenues?company_id=${revenue.body[0]?.company_id}&reporting_period=2020`);
    expect(byId.body).toEqual(revenue.body);
    expect(summary.skipped.no_fx_rate).toBeGreaterThan(0);

    const again = await run('esef', INPRO_2020);
    expect(again.code, again.stderr).toBe(0);
    expect(again.json()).toMatchObject({ companies_matched: 1, companies_added: 0, documents: 0, data_points: 0 });
    expect(await t.db.kysely.selectFrom('companies').select('company_id').execute()).toHaveLength(1);
  });

  it("serves an SEC filer's figures from its companyfacts alone, without sec-tickers", async () => {
    const r = await run('sec-companyfacts', SNOWFLAKE);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ filers: 1, companies_matched: 0, companies_added: 1 });
    const company = await t.db.kysely
      .selectFrom('companies')
      .select(['company_id', 'name', 'lei'])
      .where('cik', '=', '0001640147')
      .executeTakeFirstOrThrow();
    expect(company).toMatchObject({ name: 'SNOWFLAKE INC.', lei: null });
    // Fiscal 2025 ended 31 January 2025: reporting period 2025 (design §10.4).
    const revenue = await get<Figure[]>(`/api/v1/revenues?company_id=${company.company_id}&reporting_period=2025`);
    expect(revenue.status).toBe(200);
    expect(revenue.body.map((f) => [f.value, f.original_ccy])).toEqual([[3_626_396_000, 'USD']]);
    const netIncome = await get<Figure[]>(`/api/v1/net-income?company_id=${company.company_id}&reporting_period=2025`);
    expect(netIncome.body.map((f) => f.value)).toEqual([-1_285_640_000]);

    // Once the ticker file lists the CIK, it is the same company, now with its listing.
    const tickers = join(dir, 'company_tickers_exchange.json');
    writeFileSync(
      tickers,
      JSON.stringify({ fields: ['cik', 'name', 'ticker', 'exchange'], data: [[1640147, 'Snowflake Inc.', 'SNOW', 'NYSE']] }),
    );
    const listed = await run('sec-tickers', tickers);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.json()).toMatchObject({ companies_matched: 1, companies_added: 0, listings_added: 1 });
    expect(
      await t.db.kysely
        .selectFrom('listings')
        .select(['ticker', 'mic_code', 'is_primary'])
        .where('company_id', '=', company.company_id)
        .execute(),
    ).toEqual([{ ticker: 'SNOW', mic_code: 'XNYS', is_primary: 1 }]);
    const byTicker = await get<Figure[]>('/api/v1/revenues?ticker=SNOW&reporting_period=2025');
    expect(byTicker.body.map((f) => f.company_id)).toEqual([company.company_id]);
  });

  it('exports a company without a listing (empty ticker and mic_code), and an empty database imports it back', async () => {
    const out = join(dir, 'export');
    const exported = await corpdata(['export', out], { CORPDATA_DATABASE: t.database.url, CORPDATA_DEMO: 'off' });
    expect(exported.code, exported.stderr).toBe(0);
    const rows = readFileSync(join(out, 'companies.csv'), 'utf8').split('\n');
    expect(rows.filter((r) => r.includes(INPRO_LEI)).map((r) => r.split(',').slice(1, 7))).toEqual([
      ['INPRO SA', '', INPRO_LEI, '', '', ''],
    ]);
    const empty = await createTestDatabase(dialect);
    try {
      const env = { CORPDATA_DATABASE: empty.url, CORPDATA_DEMO: 'off' };
      const imported = await corpdata(['import', out], env);
      expect(imported.code, imported.stderr).toBe(0);
      // The same bundle again changes nothing.
      expect((await corpdata(['import', out], env)).code).toBe(0);
      const again = await corpdata(['export', join(dir, 'export-again')], env);
      expect(again.code, again.stderr).toBe(0);
      expect(readFileSync(join(dir, 'export-again', 'companies.csv'), 'utf8')).toBe(
        readFileSync(join(out, 'companies.csv'), 'utf8'),
      );
      expect(readFileSync(join(dir, 'export-again', 'revenues.csv'), 'utf8')).toBe(
        readFileSync(join(out, 'revenues.csv'), 'utf8'),
      );
    } finally {
      await empty.drop();
    }
  });

  it('refuses a companies.csv row with an ISIN but no listing, naming file and line', async () => {
    const bad = join(dir, 'bad');
    mkdirSync(bad);
    writeFileSync(
      join(bad, 'companies.csv'),
      'company_id,name,country,lei,ticker,mic_code,isin\n30000000-0000-4000-8000-000000000001,Unlisted SA,Poland,,,,PLINPRO00015\n',
    );
    const r = await corpdata(['import', bad], { CORPDATA_DATABASE: t.database.url, CORPDATA_DEMO: 'off' });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('companies.csv');
    expect(r.stderr).toContain('isin needs a listing');
  });

  it('adds no company for a filer that gives no annual figure, and says so', async () => {
    const quarterly = join(dir, 'quarterly');
    mkdirSync(quarterly);
    const fact = {
      start: '2024-01-01',
      end: '2024-03-31',
      val: 5_000_000,
      accn: '0009999999-24-000001',
      form: '10-Q',
      filed: '2024-05-01',
    };
    writeFileSync(
      join(quarterly, 'CIK0009999999.json'),
      JSON.stringify({
        cik: 9999999,
        entityName: 'Quarterly Only Inc.',
        facts: { 'us-gaap': { Revenues: { units: { USD: [fact] } } } },
      }),
    );
    const r = await run('sec-companyfacts', quarterly);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ filers: 1, companies_matched: 0, companies_added: 0, documents: 0 });
    expect(r.stderr).toContain(
      'ingest sec-companyfacts: warning: none of the 1 filers is a catalog company or gave an annual figure, so no company and no data point was added',
    );
    expect(await t.db.kysely.selectFrom('companies').select('company_id').where('cik', '=', '0009999999').execute()).toEqual([]);
  });
});
