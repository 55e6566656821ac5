import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleClient, csrfOf } from './support/console-client.js';
import { STATEMENT_DATASETS } from './support/datasets.js';
import { dialects } from './support/dialects.js';
import { APPLE } from './support/fixture.js';
import { EXPLORER_BUNDLE, startApp, type TestApp } from './support/test-app.js';

const PASSWORD = 'statement page password';
const COMPANY = `/account/companies/${APPLE.id}`;
const STATEMENT = `${COMPANY}/statement`;

/** The console's statement table (design §18.3) on Apple's real revenue and net income, 2020 to 2025. */
describe.each(dialects())('console: the statement table (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(dialect, { bundle: EXPLORER_BUNDLE, datasets: STATEMENT_DATASETS });
  });
  afterAll(() => t.close());
  afterEach(() => t.expectLedgersBalance());

  async function signedIn(options: { credits?: number; subscriptions?: string[] } = {}) {
    const account = await t.account({ password: PASSWORD, ...options });
    const c = new ConsoleClient(t.url);
    expect((await c.signIn(account.email, PASSWORD)).status).toBe(303);
    return { account, c };
  }

  async function charges(accountId: string) {
    const rows = await t.db.kysely
      .selectFrom('ledger')
      .select(['amount', 'endpoint', 'reporting_period'])
      .where('account_id', '=', accountId)
      .where('kind', '=', 'charge')
      .orderBy('entry_id')
      .execute();
    return rows.map((r) => [Number(r.amount), r.endpoint, r.reporting_period]);
  }

  /** The statement section of a company page. */
  const section = (page: string) =>
    page.slice(
      page.indexOf('<section aria-labelledby="h-statement"'),
      page.indexOf('</section>', page.indexOf('id="h-statement"')),
    );

  it('shows the most recent period, an offer per item and one to buy all, and no unpaid figure', async () => {
    const { c } = await signedIn({ credits: 1000 });
    const page = await c.get(COMPANY);
    expect(page.status).toBe(200);
    const table = section(page.text);
    expect(table).toContain('<caption>Statement of 2025</caption>');
    expect(table).toContain(`href="${COMPANY}/buy?dataset=revenues&#38;period=2025"`);
    expect(table).toContain(`href="${COMPANY}/buy?dataset=net-income&#38;period=2025"`);
    expect(table).toContain('Buy all 2 items of 2025: 50 credits');
    expect(page.text).not.toContain('416,161,000,000');
    expect(page.text).not.toContain('112,010,000,000');
    const earlier = section((await c.get(`${COMPANY}?statement=2021`)).text);
    expect(earlier).toContain('<caption>Statement of 2021</caption>');
    // A period no item covers, or no year at all, shows the most recent.
    expect(section((await c.get(`${COMPANY}?statement=2009`)).text)).toContain('<caption>Statement of 2025</caption>');
    expect(section((await c.get(`${COMPANY}?statement=x`)).text)).toContain('<caption>Statement of 2025</caption>');
  });

  it('buys every item of a period in one charge, then shows each figure linked to its trace page', async () => {
    const { account, c } = await signedIn({ credits: 1000 });
    const page = await c.get(`${COMPANY}?statement=2023`);
    const done = await c.post(STATEMENT, { csrf: csrfOf(page.text), period: '2023' });
    expect([done.status, done.location]).toEqual([303, `${COMPANY}?statement=2023#statement`]);
    expect(await charges(account.accountId)).toEqual([
      [-25, 'revenues', 2023],
      [-25, 'net-income', 2023],
    ]);
    const after = section((await c.get(`${COMPANY}?statement=2023`)).text);
    expect(after).toMatch(/<a href="\/trace\/[0-9a-f-]+">383,285,000,000 USD<\/a>/);
    expect(after).toMatch(/<a href="\/trace\/[0-9a-f-]+">96,995,000,000 USD<\/a>/);
    expect(after).not.toContain('Buy all');
    // The trace page of a figure shows its value to the buyer.
    const trace = /<a href="(\/trace\/[0-9a-f-]+)">96,995,000,000 USD/.exec(after)?.[1] ?? '';
    expect((await c.get(trace)).text).toContain('96,995,000,000');
    // The API's statement call is now a repeat of both items.
    const api = await t.get('/api/v1/fundamentals?ticker=AAPL&reporting_period=2023', account.key);
    expect([api.status, api.cost]).toEqual([200, 2]);
    // Nothing left to buy in 2023.
    const again = await c.post(STATEMENT, { csrf: csrfOf(page.text), period: '2023' });
    expect(again.status).toBe(400);
    expect((await charges(account.accountId)).filter(([amount]) => amount === -25)).toHaveLength(2);
  });

  it('buys one item alone through the purchase form, and offers the rest', async () => {
    const { account, c } = await signedIn({ credits: 1000 });
    const review = await c.get(`${COMPANY}/buy?dataset=net-income&period=2024`);
    const done = await c.post(`${COMPANY}/buy`, { csrf: csrfOf(review.text), dataset: 'net-income', periods: '2024' });
    expect(done.status).toBe(303);
    const table = section((await c.get(`${COMPANY}?statement=2024`)).text);
    expect(table).toMatch(/<a href="\/trace\/[0-9a-f-]+">93,736,000,000 USD<\/a>/);
    expect(table).not.toContain('391,035,000,000');
    expect(table).toContain(`href="${COMPANY}/buy?dataset=revenues&#38;period=2024"`);
    expect(table).toContain('Buy all 1 item of 2024: 25 credits');
    expect(await charges(account.accountId)).toEqual([[-25, 'net-income', 2024]]);
  });

  it('offers only the items of the subscriptions held', async () => {
    const { c } = await signedIn({ credits: 1000, subscriptions: ['revenues'] });
    const table = section((await c.get(COMPANY)).text);
    expect(table).toContain('needs the fundamentals subscription');
    expect(table).not.toContain('dataset=net-income');
    expect(table).toContain('Buy all 1 item of 2025: 25 credits');
  });

  it('refuses a purchase the balance does not cover, a forged form and a bad period, charging nothing', async () => {
    const { account, c } = await signedIn({ credits: 30 });
    const csrf = csrfOf((await c.get(COMPANY)).text);
    const poor = await c.post(STATEMENT, { csrf, period: '2025' });
    expect(poor.status).toBe(402);
    expect(poor.text).toContain('nothing was charged');
    expect((await c.post(STATEMENT, { csrf: 'x'.repeat(43), period: '2022' })).status).toBe(403);
    expect((await new ConsoleClient(t.url).post(STATEMENT, { csrf, period: '2022' })).status).toBe(403);
    expect((await c.post(STATEMENT, { csrf, period: '2022;drop' })).status).toBe(400);
    expect((await c.post(STATEMENT, { csrf, period: '2022,2021' })).status).toBe(400);
    expect(
      (await c.post(`/account/companies/${'0'.repeat(8)}-0000-4000-8000-000000000099/statement`, { csrf, period: '2022' }))
        .status,
    ).toBe(404);
    expect(await charges(account.accountId)).toEqual([]);
    // 25 credits buy one item of 2022 alone.
    const review = await c.get(`${COMPANY}/buy?dataset=revenues&period=2022`);
    expect((await c.post(`${COMPANY}/buy`, { csrf: csrfOf(review.text), dataset: 'revenues', periods: '2022' })).status).toBe(
      303,
    );
    expect(await charges(account.accountId)).toEqual([[-25, 'revenues', 2022]]);
  });
});
