import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestCli } from './support/cli.js';
import { dialects } from './support/dialects.js';
import { revenuesOf, waitForPeriods } from './support/filings-app.js';
import { PUBLIC_URL, startApp, type TestAccount, type TestApp } from './support/test-app.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/filings/revenue-guard', import.meta.url));
const CONTRACT = 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax';

interface RevenueRecord {
  reporting_period: number;
  value: number;
  traceability_source_url: string;
}

interface Provenance {
  concept: string;
  candidates: Array<{ concept: string; value: number | null; passed_over: string | null }>;
  bounds: Array<{ concept: string; value: number | null }>;
}

/**
 * The statements' arithmetic guards which concept is revenue (design §18.4), on the real
 * companyfacts of General Mills (a `Revenues` sub-line beside its contract revenue), Royal
 * Caribbean and Micron (revenue under cost of revenue, alone: kept). Expected values are the
 * filings' own, read from the fixtures by hand.
 */
describe.each(dialects())('the revenue guard on real filings (%s)', (dialect) => {
  let t: TestApp;
  let buyer: TestAccount;
  let summary: Record<string, unknown>;
  const run = (...args: string[]) => ingestCli(t.database.url, ...args);
  const revenues = (query: string) => revenuesOf<RevenueRecord>(t, buyer.key, query);
  const trace = (url: string, accept: string, key = buyer.key) =>
    fetch(t.url + url.replace(PUBLIC_URL, ''), { headers: { accept, authorization: `Bearer ${key}` } });

  beforeAll(async () => {
    t = await startApp(dialect, { bundle: null });
    buyer = await t.account({ credits: 10_000 });
    const tickers = await run('sec-tickers', `${FIXTURES}/company_tickers_exchange.json`);
    expect(tickers.code, tickers.stderr).toBe(0);
    const facts = await run('sec-companyfacts', FIXTURES);
    expect(facts.code, facts.stderr).toBe(0);
    summary = facts.json();
    for (const ticker of ['GIS', 'RCL', 'MU']) await waitForPeriods(t, buyer.key, ticker);
  });
  afterAll(() => t.close());

  it("serves General Mills' contract revenue, one data point a year, never its Revenues sub-line", async () => {
    const expected: Array<[number, number]> = [
      [2020, 17_626_600_000],
      [2021, 18_127_000_000],
      [2022, 18_992_800_000],
      [2023, 20_094_200_000],
      [2024, 19_857_200_000],
      [2025, 19_486_600_000],
    ];
    for (const [year, value] of expected) {
      const records = await revenues(`ticker=GIS&reporting_period=${year}`);
      expect(records.map((r) => [r.reporting_period, r.value])).toEqual([[year, value]]);
    }
    // Each 10-K of 2021–2024 passed its own sub-line over (one for each period it tags it for).
    expect(summary).toMatchObject({ skipped: { below_filing_arithmetic: 12 } });
  });

  it('names the passed-over candidate, why, and the lines it was held against: concepts to anyone, values to a buyer', async () => {
    const [record] = await revenues('ticker=GIS&reporting_period=2023');
    const bought = (await (await trace(record?.traceability_source_url ?? '', 'application/json')).json()) as Provenance;
    expect(bought).toMatchObject({
      concept: CONTRACT,
      candidates: [
        {
          concept: 'us-gaap:Revenues',
          value: 1_957_400_000,
          passed_over: "under the same filing's us-gaap:CostOfGoodsAndServicesSold for the period",
        },
      ],
      bounds: [
        { concept: 'us-gaap:CostOfGoodsAndServicesSold', value: 13_548_400_000 },
        { concept: 'us-gaap:OperatingIncomeLoss', value: 3_433_800_000 },
      ],
    });
    const stranger = await t.account({ credits: 100 });
    const shown = (await (
      await trace(record?.traceability_source_url ?? '', 'application/json', stranger.key)
    ).json()) as Provenance;
    expect(shown.candidates.map((c) => c.value)).toEqual([null]);
    expect(shown.bounds.map((b) => b.value)).toEqual([null, null]);
    const page = await (await trace(record?.traceability_source_url ?? '', 'text/html')).text();
    expect(page).toContain('passed over: under the same filing&#39;s us-gaap:CostOfGoodsAndServicesSold for the period');
    expect(page).toContain("The filing's lines the candidates were held against");
    expect(page).toContain('<code>us-gaap:OperatingIncomeLoss</code>');
  });

  it('keeps the revenue of a company that sold below cost: the guard only chooses between candidates of one filing', async () => {
    expect((await revenues('ticker=RCL&reporting_period=2020')).map((r) => r.value)).toEqual([2_208_805_000]);
    expect((await revenues('ticker=RCL&reporting_period=2021')).map((r) => r.value)).toEqual([1_532_133_000]);
    expect((await revenues('ticker=MU&reporting_period=2023')).map((r) => r.value)).toEqual([15_540_000_000]);
    const [record] = await revenues('ticker=MU&reporting_period=2023');
    const provenance = (await (await trace(record?.traceability_source_url ?? '', 'application/json')).json()) as Provenance;
    expect(provenance).toMatchObject({ concept: CONTRACT, candidates: [], bounds: [] });
  });
});
