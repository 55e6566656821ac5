import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleClient, csrfOf } from './support/console-client.js';
import { dialects } from './support/dialects.js';
import { APPLE } from './support/fixture.js';
import { EXPLORER_BUNDLE, startApp, type TestApp } from './support/test-app.js';

const PASSWORD = 'explorer page password';
const COMPANY = `/account/companies/${APPLE.id}`;

describe.each(dialects())('console: the data explorer (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(dialect, { bundle: EXPLORER_BUNDLE });
  });
  afterAll(() => t.close());

  async function signedIn(options: { credits?: number; subscriptions?: string[] } = {}) {
    const account = await t.account({ password: PASSWORD, ...options });
    const c = new ConsoleClient(t.url);
    expect((await c.signIn(account.email, PASSWORD)).status).toBe(303);
    return { account, c };
  }

  async function charges(accountId: string) {
    const rows = await t.db.kysely
      .selectFrom('ledger')
      .select(['amount', 'endpoint', 'key_id', 'company_id', 'reporting_period', 'balance_after'])
      .where('account_id', '=', accountId)
      .where('kind', '=', 'charge')
      .orderBy('entry_id')
      .execute();
    return rows.map((r) => ({ ...r, amount: Number(r.amount), balance_after: Number(r.balance_after) }));
  }

  async function balance(accountId: string): Promise<number> {
    const row = await t.db.kysely
      .selectFrom('accounts')
      .select('balance')
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    return Number(row.balance);
  }

  it('states the coverage on the home page, counted from the catalog and the processed documents', async () => {
    const home = await t.get('/');
    expect(home.status).toBe(200);
    expect(home.text).toContain('<li><strong>3</strong> companies</li>');
    expect(home.text).toContain('<li><strong>3</strong> listings on 2 exchanges</li>');
    expect(home.text).toMatch(
      /<code>\/api\/v1\/revenues<\/code><br>Revenues<\/td>\s*<td data-label="Companies" class="num">1<\/td><td data-label="Years">2020–2025<\/td>\s*<td data-label="Figures" class="num">7<\/td>/,
    );
    expect(home.text).toContain('6 SEC filings (XBRL, read as filed) and 1 other document');
    expect(home.text).toContain('<pre tabindex="0" role="region" aria-label="Example call with the test token">');
    expect(home.text).toContain('href="/account"');
  });

  it('searches for free, as the API search does', async () => {
    const { account, c } = await signedIn();
    const page = await c.get('/account/companies?query=apple');
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<a href="${COMPANY}"><strong>Apple Inc.</strong></a>`);
    expect(page.text.indexOf('Apple Inc.')).toBeLessThan(page.text.indexOf('Apple Hospitality REIT'));
    expect(page.text).toContain('AAPL · Nasdaq');
    expect(page.headers.get('content-security-policy')).toContain("connect-src 'self'");
    const fragment = await c.get('/account/companies/results?query=aple');
    expect(fragment.text).toContain('Apple Hospitality REIT, Inc.');
    expect(fragment.text).not.toContain('<html');
    expect((await c.get('/account/companies/results?query=%3Cscript%3E')).text).toContain('&#60;script&#62;');
    expect(await charges(account.accountId)).toEqual([]);
    expect((await new ConsoleClient(t.url).get('/account/companies/results?query=apple')).status).toBe(401);
  });

  it('shows what exists, buys through the API’s charge, and the API then answers a repeat at 1 credit', async () => {
    const { account, c } = await signedIn({ credits: 1000 });
    const company = await c.get(COMPANY);
    expect(company.status).toBe(200);
    expect(company.text).toContain('<code>0000320193</code>');
    for (const year of [2025, 2024, 2023, 2022, 2021, 2020])
      expect(company.text).toContain(`id="revenues-${year}" name="period" value="${year}"`);
    expect(company.text).toContain('id="ghg-emissions-2020"');

    const review = await c.get(`${COMPANY}/buy?dataset=revenues&period=2024`);
    expect(review.text).toContain('<strong id="buy-total">25</strong>');
    expect(review.text).toContain('<strong id="balance-after">975</strong>');
    expect(await charges(account.accountId)).toEqual([]);

    const done = await c.post(`${COMPANY}/buy`, { csrf: csrfOf(review.text), dataset: 'revenues', periods: '2024' });
    expect(done.status).toBe(303);
    expect(done.location).toBe(`${COMPANY}?bought=revenues&periods=2024#revenues`);
    expect(await charges(account.accountId)).toEqual([
      { amount: -25, endpoint: 'revenues', key_id: null, company_id: APPLE.id, reporting_period: 2024, balance_after: 975 },
    ]);

    const after = await c.get(`${COMPANY}?bought=revenues&periods=2024`);
    expect(after.text).toContain('Bought: Revenues 2024.');
    expect(after.text).toContain('391,035,000,000 USD');
    expect(after.text).toMatch(/<a href="\/trace\/[0-9a-f-]+" aria-label="Total Revenue, 2024: 391,035,000,000 USD/);
    expect(after.text).toContain('reported again, unchanged');
    expect(after.text).not.toContain('383,285,000,000'); // 2023 is not bought

    // The API's own call for the same company-period is now a repeat.
    const api = await t.get('/api/v1/revenues?ticker=AAPL&reporting_period=2024', account.key);
    expect([api.status, api.cost, api.balance]).toEqual([200, 1, 974]);
    expect(api.json<Array<{ value: number }>>().map((r) => r.value)).toEqual([APPLE.fy2024Revenue, APPLE.fy2024Revenue]);

    // Bought periods are not sold twice.
    const again = await c.post(`${COMPANY}/buy`, { csrf: csrfOf(review.text), dataset: 'revenues', periods: '2024' });
    expect(again.status).toBe(400);
    expect(again.text).toContain('Choose at least one period you have not bought yet.');
    expect(await balance(account.accountId)).toBe(974);
    await t.expectLedgersBalance();
  });

  it('charges 25 once when the console and the API buy the same company-period at the same time', async () => {
    const { account, c } = await signedIn({ credits: 1000 });
    const csrf = csrfOf((await c.get(COMPANY)).text);
    const [page, ...calls] = await Promise.all([
      c.post(`${COMPANY}/buy`, { csrf, dataset: 'revenues', periods: '2022' }),
      t.get('/api/v1/revenues?ticker=AAPL&reporting_period=2022', account.key),
      t.get(`/api/v1/revenues?company_id=${APPLE.id}&reporting_period=2022`, account.key),
    ]);
    // The console either bought it (303) or, the API's purchase having committed before its quote,
    // found nothing left to buy (400). Either way one purchase: 25 once, the repeat price otherwise.
    expect([303, 400]).toContain(page.status);
    const lines = await charges(account.accountId);
    expect(lines.map((l) => l.amount).sort((a, b) => a - b)).toEqual(page.status === 303 ? [-25, -1, -1] : [-25, -1]);
    expect(calls.map((r) => r.status)).toEqual([200, 200]);
    expect(await balance(account.accountId)).toBe(1000 + lines.reduce((sum, l) => sum + l.amount, 0));
    const purchases = await t.db.kysely
      .selectFrom('purchases')
      .select('dataset')
      .where('account_id', '=', account.accountId)
      .execute();
    expect(purchases).toEqual([{ dataset: 'revenues' }]);
    await t.expectLedgersBalance();
  });

  it('sees as bought what the API bought, in that dataset only', async () => {
    const { account, c } = await signedIn();
    expect((await t.get('/api/v1/revenues?ticker=AAPL&reporting_period=2023', account.key)).cost).toBe(25);
    const page = await c.get(COMPANY);
    expect(page.text).not.toContain('id="revenues-2023"');
    expect(page.text).toContain('383,285,000,000 USD');
    expect(page.text).toContain('id="ghg-emissions-2020"');
  });

  it('buys several periods, one ledger line each, and refuses a purchase the balance does not cover', async () => {
    const { account, c } = await signedIn({ credits: 60 });
    const review = await c.get(`${COMPANY}/buy?dataset=revenues&period=2022&period=2021&period=2020`);
    expect(review.text).toContain('Insufficient credits: this purchase costs 75, the balance is 60.');
    expect(review.text).not.toContain('Confirm');
    // Posted anyway, the charge itself refuses: all or nothing, not the two periods 60 would cover.
    const refused = await c.post(`${COMPANY}/buy`, { csrf: csrfOf(review.text), dataset: 'revenues', periods: '2022,2021,2020' });
    expect(refused.status).toBe(402);
    expect(refused.text).toContain('Insufficient credits: this purchase costs 75, the balance is 60; nothing was charged.');
    expect(refused.text).not.toContain('Confirm');
    expect(await charges(account.accountId)).toEqual([]);
    expect(await balance(account.accountId)).toBe(60);
    const purchases = await t.db.kysely
      .selectFrom('purchases')
      .select('reporting_period')
      .where('account_id', '=', account.accountId)
      .execute();
    expect(purchases).toEqual([]);

    const two = await c.post(`${COMPANY}/buy`, { csrf: csrfOf(review.text), dataset: 'revenues', periods: '2021,2020' });
    expect(two.status).toBe(303);
    expect((await charges(account.accountId)).map((l) => [l.amount, l.reporting_period])).toEqual([
      [-25, 2021],
      [-25, 2020],
    ]);
    expect(await balance(account.accountId)).toBe(10);
    await t.expectLedgersBalance();
  });

  it('buys every period or none when the API spends the balance at the same time', async () => {
    for (let round = 0; round < 3; round += 1) {
      // 80 credits: the console's three periods (75) or the API's one (25) and then not the three.
      const { account, c } = await signedIn({ credits: 80 });
      const csrf = csrfOf((await c.get(COMPANY)).text);
      const [page, api] = await Promise.all([
        c.post(`${COMPANY}/buy`, { csrf, dataset: 'revenues', periods: '2024,2023,2022' }),
        t.get('/api/v1/revenues?ticker=AAPL&reporting_period=2021', account.key),
      ]);
      const lines = await charges(account.accountId);
      if (page.status === 303) {
        expect(api.status).toBe(402);
        expect(lines.map((l) => [l.amount, l.endpoint, l.reporting_period])).toEqual([
          [-25, 'revenues', 2024],
          [-25, 'revenues', 2023],
          [-25, 'revenues', 2022],
        ]);
      } else {
        expect([page.status, api.status]).toEqual([402, 200]);
        expect(page.text).toContain('Insufficient credits: this purchase costs 75, the balance is 55; nothing was charged.');
        expect(lines.map((l) => [l.amount, l.reporting_period])).toEqual([[-25, 2021]]);
      }
      expect(await balance(account.accountId)).toBe(80 + lines.reduce((sum, l) => sum + l.amount, 0));
    }
    await t.expectLedgersBalance();
  });

  it('refuses a dataset without its subscription, with the reason, charging nothing', async () => {
    const { account, c } = await signedIn({ subscriptions: ['revenues'] });
    const page = await c.get(COMPANY);
    expect(page.text).toContain('Subscription required: GHG emissions needs the ghg subscription');
    expect(page.text).toContain('id="ghg-emissions-2020" name="period" value="2020" disabled');
    const review = await c.get(`${COMPANY}/buy?dataset=ghg-emissions&period=2020`);
    expect(review.text).toContain('Subscription required');
    const refused = await c.post(`${COMPANY}/buy`, { csrf: csrfOf(review.text), dataset: 'ghg-emissions', periods: '2020' });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('needs the ghg subscription, which this account does not hold');
    expect(await charges(account.accountId)).toEqual([]);
    expect((await t.get('/api/v1/ghg-emissions?ticker=AAPL&reporting_period=2020', account.key)).status).toBe(403);
  });

  it('refuses a buy without the session’s CSRF token, and bad parameters, charging nothing', async () => {
    const { account, c } = await signedIn();
    expect((await c.post(`${COMPANY}/buy`, { dataset: 'revenues', periods: '2024' })).status).toBe(403);
    expect((await c.post(`${COMPANY}/buy`, { csrf: 'x'.repeat(43), dataset: 'revenues', periods: '2024' })).status).toBe(403);
    const csrf = csrfOf((await c.get(COMPANY)).text);
    expect((await c.post(`${COMPANY}/buy`, { csrf, dataset: 'nope', periods: '2024' })).status).toBe(400);
    expect((await c.post(`${COMPANY}/buy`, { csrf, dataset: 'revenues', periods: '2024;drop' })).status).toBe(400);
    expect((await c.get(`${COMPANY}/buy?dataset=revenues&period=24`)).status).toBe(400);
    expect((await c.get('/account/companies/not-an-id')).status).toBe(404);
    expect((await c.get('/account/companies/00000000-0000-4000-8000-00000000ffff')).status).toBe(404);
    const signedOut = await new ConsoleClient(t.url).post(`${COMPANY}/buy`, { csrf, dataset: 'revenues', periods: '2024' });
    expect(signedOut.status).toBe(403);
    expect(await charges(account.accountId)).toEqual([]);
  });

  it('lists what was bought and downloads it, free, as CSV and JSON', async () => {
    const { account, c } = await signedIn();
    expect((await c.get('/account/data')).text).toContain('Nothing bought yet.');
    const review = await c.get(`${COMPANY}/buy?dataset=revenues&period=2024`);
    await c.post(`${COMPANY}/buy`, { csrf: csrfOf(review.text), dataset: 'revenues', periods: '2024' });
    const ghg = await c.get(`${COMPANY}/buy?dataset=ghg-emissions&period=2020`);
    await c.post(`${COMPANY}/buy`, { csrf: csrfOf(ghg.text), dataset: 'ghg-emissions', periods: '2020' });
    const spent = await balance(account.accountId);

    const page = await c.get('/account/data');
    expect(page.text).toContain('391,035,000,000 USD');
    expect(page.text).toContain('Scope 3: <a href="/trace/');
    expect(page.text).toContain('22,550,000 tCO2e');

    const csv = await c.get('/account/data.csv');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="corpdata-data.csv"');
    const lines = csv.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'dataset,company_id,company_name,ticker,reporting_period,figure,value,unit,original_value,original_ccy,year_of_disclosure,disclosure,traceability_source_url',
    );
    expect(lines).toHaveLength(5); // two revenue figures (first and repeated) and two scopes
    expect(lines[1]).toMatch(
      new RegExp(
        `^revenues,${APPLE.id},Apple Inc\\.,AAPL,2024,Total Revenue,391035000000,USD,391035000000,USD,2024,first,http://corpdata\\.test/trace/`,
      ),
    );
    const json = await c.get('/account/data.json?dataset=ghg-emissions');
    const rows = JSON.parse(json.text) as Array<{ figure: string; value: number }>;
    expect(rows.map((r) => [r.figure, r.value])).toEqual([
      ['Scope 1', 47430],
      ['Scope 3', 22550000],
    ]);
    expect((await c.get('/account/data.csv?dataset=nope')).status).toBe(400);
    expect(await balance(account.accountId)).toBe(spent);
    expect((await new ConsoleClient(t.url).get('/account/data.csv')).status).toBe(303);
  });
});
