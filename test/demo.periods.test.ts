import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BUNDLE_DIR } from '../src/cli/open-database.js';
import { ConsoleClient, csrfOf } from './support/console-client.js';
import { dialects } from './support/dialects.js';
import { startApp, type TestApp } from './support/test-app.js';

interface History {
  company_id: string;
  periods: { reporting_period: number; records: unknown[] }[];
}

const PASSWORD = 'demo periods password';
const DATASET_PATHS = ['revenues', 'ghg-emissions', 'ghg-intensity', 'net-income'] as const;

/** The periods a console company page offers for sale, by dataset: its checkboxes. */
function periodsForSale(page: string): Map<string, number[]> {
  const sale = new Map<string, number[]>();
  for (const m of page.matchAll(/<input type="checkbox" id="([a-z-]+)-(\d{4})" name="period" value="(\d{4})"/g)) {
    const [, dataset = '', , year = ''] = m;
    sale.set(dataset, [...(sale.get(dataset) ?? []), Number(year)]);
  }
  return sale;
}

describe.each(dialects())('the demo: every year listed and sold is answered by the API (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(dialect, { bundle: DEMO_BUNDLE_DIR });
  }, 300_000);
  afterAll(() => t.close());

  it('answers 200 through history for every period /periods lists and the console sells, for every company with documents', async () => {
    const account = await t.account({ credits: 10_000_000, password: PASSWORD });
    const c = new ConsoleClient(t.url);
    expect((await c.signIn(account.email, PASSWORD)).status).toBe(303);
    // The companies with a processed document: every other one has no period in any dataset (checked on a sample below).
    const rows = await t.db.kysely
      .selectFrom('documents')
      .select('company_id')
      .distinct()
      .where('status', '=', 'processed')
      .orderBy('company_id')
      .execute();
    expect(rows.length).toBeGreaterThan(300);
    let periodsChecked = 0;
    let earlierChecked = 0;
    for (const { company_id: id } of rows) {
      const page = await c.get(`/account/companies/${id}`);
      expect(page.status).toBe(200);
      const forSale = periodsForSale(page.text);
      for (const path of DATASET_PATHS) {
        const listed = await t.get(`/api/v1/${path}/periods?company_id=${id}`, account.key);
        expect(listed.status).toBe(200);
        const periods = listed.json<{ reporting_periods: number[] }>().reporting_periods;
        const sold = forSale.get(path) ?? [];
        // The console sells only listed periods.
        expect(
          sold.filter((p) => !periods.includes(p)),
          `${path} ${id}`,
        ).toEqual([]);
        if (periods.length === 0) continue;
        const from = Math.min(...periods);
        const to = Math.max(...periods);
        const history = await t.get(`/api/v1/${path}/history?company_id=${id}&from=${from}&to=${to}`, account.key);
        expect(history.status, `${path} ${id} ${from}-${to}: ${history.text}`).toBe(200);
        const answered = history.json<History>().periods;
        expect(answered.map((p) => p.reporting_period)).toEqual(periods);
        // A period sold has figures: history answers it with records.
        for (const p of sold)
          expect(answered.find((a) => a.reporting_period === p)?.records.length, `${path} ${id} ${p}`).toBeGreaterThan(0);
        // The years the single call takes are answered by it too.
        const recent = periods.find((p) => p >= 2020);
        if (recent !== undefined) {
          expect((await t.get(`/api/v1/${path}?company_id=${id}&reporting_period=${recent}`, account.key)).status).toBeLessThan(
            300,
          );
        }
        periodsChecked += periods.length;
        earlierChecked += periods.filter((p) => p < 2020).length;
      }
    }
    // The demo holds SEC filings back to 2007: many of its periods are before the single call's range.
    expect(periodsChecked).toBeGreaterThan(5_000);
    expect(earlierChecked).toBeGreaterThan(2_000);
    // A company without documents lists nothing.
    const bare = await t.db.kysely
      .selectFrom('companies')
      .select('company_id')
      .where('company_id', 'not in', (eb) => eb.selectFrom('documents').select('company_id'))
      .limit(3)
      .execute();
    for (const { company_id: id } of bare) {
      const listed = await t.get(`/api/v1/revenues/periods?company_id=${id}`, account.key);
      expect(listed.json<{ reporting_periods: number[] }>().reporting_periods).toEqual([]);
    }
  }, 600_000);

  it('lets a buyer of Microsoft 2010 in the console fetch it by history for the repeat price, and names history in the 400 of the single call', async () => {
    const account = await t.account({ credits: 1_000, password: PASSWORD });
    const c = new ConsoleClient(t.url);
    expect((await c.signIn(account.email, PASSWORD)).status).toBe(303);
    const periods = await t.get('/api/v1/revenues/periods?ticker=MSFT', account.key);
    const { company_id: msft, reporting_periods: listed } = periods.json<{ company_id: string; reporting_periods: number[] }>();
    expect(listed).toContain(2010);
    const company = `/account/companies/${msft}`;
    const page = await c.get(company);
    expect(page.text).toContain('value="2010"');
    expect(page.text).toContain(`/api/v1/revenues/history?company_id=${msft}&amp;from=`);
    const review = await c.get(`${company}/buy?dataset=revenues&period=2010`);
    expect(review.text).toContain('<strong id="buy-total">25</strong>');
    const done = await c.post(`${company}/buy`, { csrf: csrfOf(review.text), dataset: 'revenues', periods: '2010' });
    expect(done.status).toBe(303);

    const single = await t.get('/api/v1/revenues?ticker=MSFT&reporting_period=2010', account.key);
    expect(single.status).toBe(400);
    expect(single.text).toContain('a year from 2020 to 2026');
    expect(single.text).toContain('earlier years: GET /api/v1/revenues/history?from=2000');

    const history = await t.get('/api/v1/revenues/history?ticker=MSFT&from=2010&to=2010', account.key);
    expect(history.status).toBe(200);
    expect(history.json<History>().periods).toEqual([
      { reporting_period: 2010, records: [expect.objectContaining({ reporting_period: 2010 })] },
    ]);
    // Bought in the console: the API answers it as a repeat.
    expect([history.cost, history.balance]).toEqual([1, 974]);
    // The home page counts the years the API answers, and says which call answers which.
    const home = await (await fetch(`${t.url}/`)).text();
    expect(home).toContain('2007–2026');
    expect(home).toContain('takes the years\n2020 to 2026');
    expect(home).toContain('<code>/history?from=</code>');
    const batch = await t.post('/api/v1/revenues/batch', { jobs: [{ ticker: 'MSFT', reporting_period: 2010 }] }, account.key);
    expect(batch.status).toBe(200);
    expect(batch.json<{ results: { status: number }[] }>().results).toEqual([expect.objectContaining({ status: 200 })]);
    expect([batch.cost, batch.balance]).toEqual([1, 973]);
  });
});
