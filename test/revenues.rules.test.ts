import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestCli } from './support/cli.js';
import { dialects } from './support/dialects.js';
import { revenuesOf, waitForPeriods } from './support/filings-app.js';
import { PUBLIC_URL, startApp, type TestAccount, type TestApp } from './support/test-app.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/filings/revenue-rules', import.meta.url));
const NEXTERA_2020_10K = '0000753308-21-000014';

interface RevenueRecord {
  year_of_disclosure: number;
  reporting_period: number;
  value: number;
  document_id: string;
  traceability_source_url: string;
}

interface Provenance {
  concept: string;
  candidates: Array<{ concept: string; value: number | null; passed_over: string | null }>;
  confirmed_by: Array<{ document_id: string; title: string; source_url: string; published_on: string; value: number | null }>;
  values: { value: number } | null;
}

/**
 * Which concept is revenue (design §10.3) and when a later filing is the same figure rounded
 * (design §10.6), on NextEra's and Adobe's real companyfacts (cut down to their revenue concepts).
 */
describe.each(dialects())('revenue rules on real filings (%s)', (dialect) => {
  let t: TestApp;
  let buyer: TestAccount;
  const run = (...args: string[]) => ingestCli(t.database.url, ...args);
  const revenues = (query: string) => revenuesOf<RevenueRecord>(t, buyer.key, query);
  const trace = (url: string, accept = 'text/html') =>
    fetch(t.url + url.replace(PUBLIC_URL, ''), { headers: { accept, authorization: `Bearer ${buyer.key}` } });

  beforeAll(async () => {
    t = await startApp(dialect, { bundle: null });
    buyer = await t.account({ credits: 10_000 });
    const tickers = await run('sec-tickers', `${FIXTURES}/company_tickers_exchange.json`);
    expect(tickers.code, tickers.stderr).toBe(0);
    const facts = await run('sec-companyfacts', FIXTURES);
    expect(facts.code, facts.stderr).toBe(0);
    await waitForPeriods(t, buyer.key, 'NEE');
    await waitForPeriods(t, buyer.key, 'ADBE');
  });
  afterAll(() => t.close());

  it("takes a utility's total operating revenues, not its contract revenue, and lists the other candidate", async () => {
    // NextEra's 10-K for 2020: total operating revenues $17,997 million
    // (RegulatedAndUnregulatedOperatingRevenue); contract revenue alone is $17,000 million.
    const records = await revenues('ticker=NEE&reporting_period=2020');
    expect(records.map((r) => r.value)).toEqual([17_997_000_000]);
    const [record] = records;
    const json = await trace(record?.traceability_source_url ?? '', 'application/json');
    expect(await json.json()).toMatchObject({
      concept: 'us-gaap:RegulatedAndUnregulatedOperatingRevenue',
      filing: { accession: NEXTERA_2020_10K },
      candidates: [{ concept: 'us-gaap:RevenueFromContractWithCustomerIncludingAssessedTax', value: 17_000_000_000 }],
      values: { value: 17_997_000_000 },
    });
    const page = await (await trace(record?.traceability_source_url ?? '')).text();
    expect(page).toContain('us-gaap:RegulatedAndUnregulatedOperatingRevenue');
    expect(page).toContain('us-gaap:RevenueFromContractWithCustomerIncludingAssessedTax');
  });

  it('shows the candidate concepts to anyone, their values only to a buyer', async () => {
    const [record] = await revenues('ticker=NEE&reporting_period=2020');
    const stranger = await t.account({ credits: 100 });
    const res = await fetch(t.url + (record?.traceability_source_url ?? '').replace(PUBLIC_URL, ''), {
      headers: { accept: 'application/json', authorization: `Bearer ${stranger.key}` },
    });
    const body = (await res.json()) as Provenance;
    expect(body.candidates).toEqual([
      { concept: 'us-gaap:RevenueFromContractWithCustomerIncludingAssessedTax', value: null, passed_over: null },
    ]);
    expect(body.values).toBeNull();
  });

  it('keeps the more precise figure when a later filing repeats it rounded, and names that filing', async () => {
    // Adobe's fiscal 2018 revenue: $9,030,008 thousand in the 10-Ks of 2019 and 2020; the 10-K
    // filed in January 2021 repeats it as $9,030 million: the same figure, not a restatement.
    const { reporting_periods: periods } = (await t.get('/api/v1/revenues/periods?ticker=ADBE', buyer.key)).json<{
      reporting_periods: number[];
    }>();
    const offset = -(periods.indexOf(2018) + 1);
    const records = await revenues(`ticker=ADBE&reporting_period=${offset}`);
    expect(records.map((r) => [r.reporting_period, r.value])).toEqual([[2018, 9_030_008_000]]);
    const provenance = (await (await trace(records[0]?.traceability_source_url ?? '', 'application/json')).json()) as Provenance;
    expect(provenance.confirmed_by.length).toBeGreaterThan(0);
    expect(provenance.confirmed_by.map((c) => c.value)).toEqual(provenance.confirmed_by.map(() => 9_030_000_000));
    expect(provenance.confirmed_by[0]?.title).toContain('10-K filed 2021-01-15');
    const page = await (await trace(records[0]?.traceability_source_url ?? '')).text();
    expect(page).toContain('Confirmed by later filings');
    expect(page).toContain(provenance.confirmed_by[0]?.source_url);
  });

  it('changes nothing when the same filings are ingested again', async () => {
    const before = await t.db.kysely.selectFrom('revenue_points').selectAll().orderBy('point_id').execute();
    const again = await run('sec-companyfacts', FIXTURES);
    expect(again.code, again.stderr).toBe(0);
    expect(again.json()).toMatchObject({ documents: 0, data_points: 0, restatements: 0 });
    expect(await t.db.kysely.selectFrom('revenue_points').selectAll().orderBy('point_id').execute()).toEqual(before);
  });
});
