import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../src/accounts/accounts.js';
import { adjustCredits } from '../src/credits/adjust-credits.js';
import { apiGet } from './support/api-client.js';
import { ConsoleClient, csrfOf, newKey } from './support/console-client.js';
import { SUBSCRIPTIONS } from './support/datasets.js';
import { dialects } from './support/dialects.js';
import { BETA, ZETA } from './support/fixture.js';
import { startApp, type TestApp } from './support/test-app.js';

const PASSWORD = 'usage page password';

/** The ledger section of the usage page and its rows. */
function ledgerRows(page: string): number {
  const section = page.slice(page.indexOf('<h2>Ledger</h2>'), page.indexOf('<h2>Purchased company-periods</h2>'));
  return section.split('<tr><td data-label="When">').length - 1;
}

describe.each(dialects())('console: keys and usage (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(dialect);
  });
  afterAll(() => t.close());

  const api = (path: string, key: string) => t.get(path, key);

  it('pages the ledger by 50, filters it and the chart by key, and lists purchases', async () => {
    const account = await t.account({ password: PASSWORD, credits: 1000 });
    const c = new ConsoleClient(t.url);
    expect((await c.signIn(account.email, PASSWORD)).status).toBe(303);
    const second = newKey((await c.submit('/account/keys', '/account/keys', { name: 'second', lifetime: '' })).text);
    for (let i = 0; i < 50; i += 1) expect((await api('/api/v1/companies/search?query=alpha', account.key)).cost).toBe(1);
    expect((await api('/api/v1/revenues?ticker=BETA&reporting_period=2023', second)).cost).toBe(25);
    expect((await api('/api/v1/revenues?ticker=BETA&reporting_period=-1', second)).cost).toBe(25);
    expect((await api('/api/v1/revenues?ticker=BETA&reporting_period=2024', second)).cost).toBe(1);

    const first = await c.get('/account/usage');
    expect(first.text).toContain('<strong id="balance">899</strong>');
    expect(ledgerRows(first.text)).toBe(50);
    expect(first.text).toContain('href="/account/usage?page=2" rel="next"');
    expect(first.text).not.toContain('rel="prev"');
    const today = new Date().toISOString().slice(0, 10);
    expect(first.text).toContain(`<title>${today}: 101 credits</title>`);
    // Purchases name their figures, each a link to its trace page, and their company's page.
    expect(first.text).toMatch(
      /Beta Corporation<\/a><\/td><td data-label="Ticker">BETA \(XNYS\)<\/td><td data-label="Period">2024<\/td><td data-label="Dataset">Revenues<\/td>\s*<td data-label="Figures"><ul class="plain"><li><a href="\/trace\/[0-9a-f-]+">Total Revenue: 9,000,000,000 USD<\/a>/,
    );
    expect(first.text).toMatch(
      /Beta Corporation<\/a><\/td><td data-label="Ticker">BETA \(XNYS\)<\/td><td data-label="Period">2023<\/td>/,
    );
    // Each dataset line says which charge it was; a search says what was searched.
    expect(first.text).toContain('Revenues: Beta Corporation, 2024: repeat');
    expect(first.text).toContain('Revenues: Beta Corporation, 2023: bought');
    expect(first.text).toContain('Company search: “alpha”');
    expect(first.text).toMatch(/<code>revenues<\/code> \(Revenues\): <strong>held<\/strong>/);

    const page2 = await c.get('/account/usage?page=2');
    expect(ledgerRows(page2.text)).toBe(4); // 53 charges + the opening grant
    expect(page2.text).toContain('Credits added');
    expect(page2.text).toContain('rel="prev"');
    expect(page2.text).not.toContain('rel="next"');

    const keys = await t.db.kysely
      .selectFrom('api_keys')
      .select(['key_id', 'name'])
      .where('account_id', '=', account.accountId)
      .execute();
    const secondId = keys.find((k) => k.name === 'second')?.key_id ?? '';
    const filtered = await c.get(`/account/usage?key=${secondId}`);
    expect(ledgerRows(filtered.text)).toBe(3);
    expect(filtered.text).toContain(`<option value="${secondId}" selected>`);
    expect(filtered.text).toContain(`<title>${today}: 51 credits</title>`);
    expect(filtered.text).toContain('Revenues: Beta Corporation, 2024');
    for (const junk of ['?page=0', '?page=-3', '?page=abc', '?page=99999', '?key=nope&page=1']) {
      expect((await c.get(`/account/usage${junk}`)).status).toBe(200);
    }
  });

  it('says a 204 was a call for a period without data, that bought nothing, and names console purchases', async () => {
    const account = await t.account({ password: PASSWORD, credits: 100, subscriptions: ['revenues'] });
    const c = new ConsoleClient(t.url);
    expect((await c.signIn(account.email, PASSWORD)).status).toBe(303);
    expect((await api(`/api/v1/revenues?company_id=${ZETA.id}&reporting_period=2022`, account.key)).status).toBe(204);
    const review = await c.get(`/account/companies/${BETA.id}/buy?dataset=revenues&period=2024`);
    expect(
      (await c.post(`/account/companies/${BETA.id}/buy`, { csrf: csrfOf(review.text), dataset: 'revenues', periods: '2024' }))
        .status,
    ).toBe(303);
    const page = await c.get('/account/usage');
    expect(page.text).toContain('Revenues: Zeta Kogyo K.K., 2022: no data (answered 204, nothing bought)');
    expect(page.text).toMatch(
      /Revenues: Beta Corporation, 2024: bought<\/td><td data-label="Key">console<\/td>\s*<td data-label="Credits" class="num">-25<\/td><td data-label="Balance after" class="num">74<\/td>/,
    );
    expect(page.text).toMatch(/<code>ghg<\/code> \(GHG emissions, GHG intensity\): not held/);
  });

  it('keeps a search query on its ledger line, and shows it escaped', async () => {
    const account = await t.account({ password: PASSWORD, credits: 10 });
    const query = '<i>Beta & "Zeta"</i>';
    expect((await api(`/api/v1/companies/search?query=${encodeURIComponent(query)}`, account.key)).cost).toBe(1);
    const lines = await t.db.kysely
      .selectFrom('ledger')
      .select(['endpoint', 'detail', 'amount'])
      .where('account_id', '=', account.accountId)
      .where('kind', '=', 'charge')
      .execute();
    expect(lines).toEqual([{ endpoint: 'companies/search', detail: query, amount: -1 }]);
    const c = new ConsoleClient(t.url);
    expect((await c.signIn(account.email, PASSWORD)).status).toBe(303);
    const page = await c.get('/account/usage');
    expect(page.text).toContain('Company search: “&#60;i&#62;Beta &#38; &#34;Zeta&#34;&#60;/i&#62;”');
    expect(page.text).not.toContain('<i>Beta');
    // A NUL, which PostgreSQL text cannot hold, is kept as U+FFFD: the search still answers and is charged once.
    expect((await api(`/api/v1/companies/search?query=${encodeURIComponent('be\0ta')}`, account.key)).cost).toBe(1);
    const nul = await t.db.kysely
      .selectFrom('ledger')
      .select('detail')
      .where('account_id', '=', account.accountId)
      .orderBy('entry_id', 'desc')
      .executeTakeFirst();
    expect(nul?.detail).toBe('be\uFFFDta');
  });

  it("says an operator's adjustment was one, without the operator's reason", async () => {
    const account = await t.account({ password: PASSWORD, credits: 100 });
    const reason = 'duplicate grant of invoice 2026-114';
    await adjustCredits(t.db.kysely, { accountId: account.accountId, amount: -40, reason, at: new Date().toISOString() });
    const c = new ConsoleClient(t.url);
    expect((await c.signIn(account.email, PASSWORD)).status).toBe(303);
    const page = await c.get('/account/usage');
    expect(page.text).toMatch(
      /Credits adjusted by the operator<\/td><td data-label="Key">—<\/td>\s*<td data-label="Credits" class="num">-40<\/td><td data-label="Balance after" class="num">60<\/td>/,
    );
    expect(page.text).toContain('<strong id="balance">60</strong>');
    expect(page.text).not.toContain(reason);
    // Not a charge: the chart of credits spent leaves it out.
    expect(page.text).toContain(`<title>${new Date().toISOString().slice(0, 10)}: 0 credits</title>`);
  });

  it('refuses a key without a name, with a name too long or an unknown lifetime, saying why', async () => {
    const account = await t.account({ password: PASSWORD });
    const c = new ConsoleClient(t.url);
    expect((await c.signIn(account.email, PASSWORD)).status).toBe(303);
    const cases: Array<[Record<string, string>, string]> = [
      [{ name: '   ', lifetime: '' }, 'A key name must be 1 to 100 characters.'],
      [{ name: 'x'.repeat(101), lifetime: '' }, 'A key name must be 1 to 100 characters.'],
      [{ name: 'ok', lifetime: '7' }, 'Choose one of the offered expiry periods.'],
    ];
    for (const [fields, message] of cases) {
      const res = await c.submit('/account/keys', '/account/keys', fields);
      expect(res.status).toBe(400);
      expect(res.text).toContain(message);
      expect(res.text).not.toContain('id="new-key"');
    }
    const count = await t.db.kysely.selectFrom('api_keys').select('key_id').where('account_id', '=', account.accountId).execute();
    expect(count).toHaveLength(1);
  });

  it('escapes what users type: a key name is shown as text', async () => {
    const account = await t.account({ password: PASSWORD });
    const c = new ConsoleClient(t.url);
    expect((await c.signIn(account.email, PASSWORD)).status).toBe(303);
    const created = await c.submit('/account/keys', '/account/keys', { name: '<script>alert(1)</script>', lifetime: '' });
    expect(created.status).toBe(200);
    const list = await c.get('/account/keys');
    expect(list.text).not.toContain('<script>alert(1)</script>');
    expect(list.text).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
  });
});

describe.each(dialects())('console: keys that expire (%s)', (dialect) => {
  let app: TestApp;
  let now = Date.now();
  beforeAll(async () => {
    app = await startApp(dialect, { clock: () => new Date(now) });
  });
  afterAll(() => app.close());

  it('shows a key created for 30 days as active, then expired, and the API refuses it', async () => {
    const email = `expiry-${Date.now()}@example.com`;
    await createAccount(app.db.kysely, { email, password: PASSWORD, credits: 100, now: new Date(now) }, SUBSCRIPTIONS);
    const c = new ConsoleClient(app.url);
    expect((await c.signIn(email, PASSWORD)).status).toBe(303);
    const key = newKey((await c.submit('/account/keys', '/account/keys', { name: 'month', lifetime: '30' })).text);
    const search = () => apiGet(app.url, '/api/v1/companies/search?query=beta', key);
    expect((await search()).status).toBe(200);
    const before = await c.get('/account/keys');
    expect(before.text).toContain('<span class="badge active">active</span>');
    expect(before.text).toContain(new Date(now + 30 * 86_400_000).toISOString().slice(0, 10));

    now += 31 * 86_400_000;
    expect((await c.signIn(email, PASSWORD)).status).toBe(303);
    const after = await c.get('/account/keys');
    expect(after.text).toContain('<span class="badge expired">expired</span>');
    expect(after.text).not.toContain('Revoke key month');
    const refused = await search();
    expect(refused.status).toBe(401);
    expect(refused.text).toContain('Expired');
    expect(csrfOf(after.text)).toMatch(/^[\w-]{43}$/);
  });
});
