import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BUNDLE_DIR } from '../src/cli/open-database.js';
import { dialects } from './support/dialects.js';
import { PUBLIC_URL, startApp, type TestAccount, type TestApp } from './support/test-app.js';

interface NetIncomeRecord {
  reporting_period: number;
  metric: string;
  value: number;
  ccy: string;
  original_value: number;
  original_ccy: string;
  document_id: string;
  traceability_source_url: string;
}

/**
 * Each filer's `us-gaap:NetIncomeLoss` for a fiscal year, as its 10-K for that year tags it (SEC
 * companyfacts in the reference data, the 10-K's accession beside each): US filers of every size,
 * losses among them, fiscal years ending in June (Microsoft), January (Snowflake) and December.
 * Years the API can be asked for (2020 on).
 */
const TEN_K_NET_INCOME: ReadonlyArray<[ticker: string, year: number, value: number, accession: string]> = [
  ['MSFT', 2020, 44_281_000_000, '0001564590-20-034944'],
  ['AMZN', 2020, 21_331_000_000, '0001018724-21-000004'],
  ['ADBE', 2020, 5_260_000_000, '0000796343-21-000004'],
  ['CVX', 2020, -5_543_000_000, '0000093410-21-000009'],
  ['BA', 2020, -11_873_000_000, '0000012927-21-000011'],
  ['GM', 2020, 6_427_000_000, '0001467858-21-000037'],
  ['ISRG', 2020, 1_060_600_000, '0001035267-21-000028'],
  ['PI', 2020, -51_923_000, '0001564590-21-006386'],
  ['SNOW', 2021, -539_102_000, '0001640147-21-000073'],
  ['SNOW', 2023, -796_705_000, '0001640147-23-000030'],
  ['SNOW', 2025, -1_285_640_000, '0001640147-25-000052'],
  ['LVS', 2020, -1_685_000_000, '0001300514-21-000033'],
];

/** Net income (design §17) as the demo serves it: read from the same SEC filings as revenues. */
describe.each(dialects())('net income (%s)', (dialect) => {
  let t: TestApp;
  let caller: TestAccount;
  const get = async <T>(path: string, key = caller.key) => {
    const res = await t.get(path, key);
    expect(res.status, `${path}: ${res.text}`).toBe(200);
    return res.json<T>();
  };
  const byYear = (ticker: string, year: number) =>
    get<NetIncomeRecord[]>(`/api/v1/net-income?ticker=${ticker}&reporting_period=${year}`);

  beforeAll(async () => {
    t = await startApp(dialect, { bundle: DEMO_BUNDLE_DIR });
    caller = await t.account({ credits: 100_000 });
  }, 120_000);
  afterAll(() => t.close());

  it("equals each 10-K's NetIncomeLoss for ten companies, losses negative, each from that 10-K", async () => {
    expect(new Set(TEN_K_NET_INCOME.map(([ticker]) => ticker)).size).toBe(10);
    for (const [ticker, year, value, accession] of TEN_K_NET_INCOME) {
      const records = await byYear(ticker, year);
      expect(
        records.map((r) => [r.metric, r.value, r.ccy, r.original_value, r.original_ccy]),
        `${ticker} ${year}`,
      ).toEqual([['Net Income', value, 'USD', value, 'USD']]);
      const trace = await get<{ concept: string; document: { title: string } }>(
        `/api/v1/trace/${records[0]?.traceability_source_url.replace(`${PUBLIC_URL}/trace/`, '')}`,
      );
      expect(trace.concept, `${ticker} ${year}`).toBe('us-gaap:NetIncomeLoss');
      expect(trace.document.title, `${ticker} ${year}`).toContain(`(accession ${accession})`);
    }
  });

  it('is a purchase of its own, needs the fundamentals subscription, and is priced as revenues', async () => {
    const buyer = await t.account({ credits: 100 });
    const first = await t.get('/api/v1/net-income?ticker=AAPL&reporting_period=2024', buyer.key);
    expect([first.status, first.cost]).toEqual([200, 25]);
    expect(first.json<NetIncomeRecord[]>().map((r) => r.value)).toEqual([93_736_000_000]);
    expect((await t.get('/api/v1/net-income?ticker=AAPL&reporting_period=2024', buyer.key)).cost).toBe(1);
    // Buying Apple's 2024 net income did not buy its 2024 revenue.
    expect((await t.get('/api/v1/revenues?ticker=AAPL&reporting_period=2024', buyer.key)).cost).toBe(25);
    const without = await t.account({ credits: 100, subscriptions: ['revenues', 'ghg'] });
    const refused = await t.get('/api/v1/net-income?ticker=AAPL&reporting_period=2024', without.key);
    // Refused, it quotes the price and charges nothing.
    expect([refused.status, refused.cost, refused.balance]).toEqual([403, 25, 100]);
  });
});
