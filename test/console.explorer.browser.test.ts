import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { explorerInBrowser } from './support/browser.js';
import { dialects } from './support/dialects.js';
import { APPLE } from './support/fixture.js';
import { expectAccessiblePage, tabTo } from './support/page-checks.js';
import type { TestAccount } from './support/test-app.js';

const PASSWORD = 'explorer browser password';

describe.each(dialects())('the data explorer in a real browser (%s)', (dialect) => {
  const live = explorerInBrowser(dialect);

  async function charges(accountId: string): Promise<number[]> {
    const rows = await live.app.db.kysely
      .selectFrom('ledger')
      .select('amount')
      .where('account_id', '=', accountId)
      .where('kind', '=', 'charge')
      .execute();
    return rows.map((r) => Number(r.amount));
  }

  /** A phone-sized or desktop context, signed in as `account`, on the companies page. */
  async function signIn(account: TestAccount, width = 1280, height = 800): Promise<{ context: BrowserContext; page: Page }> {
    const context = await live.browser.newContext({ viewport: { width, height }, acceptDownloads: true });
    const page = await context.newPage();
    await page.goto(`${live.app.url}/account/sign-in?next=/account/companies`);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/account/companies');
    return { context, page };
  }

  /** Searches by typing (the results follow the typing) and opens Apple Inc. */
  async function openApple(page: Page): Promise<void> {
    expect(await tabTo(page, 'company-query')).toBe(true);
    await page.keyboard.type('apple');
    await page.getByRole('link', { name: 'Apple Inc.', exact: true }).click();
    await page.waitForURL(`**/account/companies/${APPLE.id}`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Apple Inc.');
  }

  it('signs in, searches "apple", buys FY2024 revenue, sees chart and table, follows a point, downloads the CSV', {
    timeout: 120_000,
  }, async () => {
    const account = await live.app.account({ password: PASSWORD, credits: 1000 });
    const { context, page } = await signIn(account);
    await expectAccessiblePage(page, 'companies');
    await openApple(page);
    expect(await page.locator('main').textContent()).toContain('0000320193');
    await expectAccessiblePage(page, 'company');

    // Choose 2024 by keyboard, then review: the total and the balance after, before paying.
    await page.locator('#revenues-2024').focus();
    await page.keyboard.press('Space');
    expect(await page.locator('#revenues-2024').isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Review purchase of Revenues' }).click();
    await expect.poll(() => page.locator('#buy-total').textContent()).toBe('25');
    expect(await page.locator('#balance-after').textContent()).toBe('975');
    expect(await charges(account.accountId)).toEqual([]);
    await expectAccessiblePage(page, 'buy');
    await page.getByRole('button', { name: 'Confirm: pay 25 credits' }).click();
    await page.waitForURL(/bought=revenues/);
    expect(await page.getByRole('status').first().textContent()).toContain('Bought: Revenues 2024.');
    expect(await page.locator('#balance').textContent()).toBe('975');

    // The chart and the table of what was bought.
    const bar = page.locator('#revenues svg a');
    expect(await bar.count()).toBe(1);
    expect(await bar.getAttribute('aria-label')).toBe('Total Revenue, 2024: 391,035,000,000 USD. Open its trace page.');
    const table = page.getByRole('table', { name: /Revenues of Apple Inc.: every figure bought/ });
    const rows = table.locator('tbody tr');
    expect(await rows.count()).toBe(2);
    expect(await rows.first().textContent()).toMatch(
      /2024\s*Total Revenue\s*391,035,000,000 USD\s*391,035,000,000 USD\s*2024, as first reported/,
    );
    expect(await rows.nth(1).textContent()).toContain('2025, reported again, unchanged');
    await expectAccessiblePage(page, 'company after the purchase');

    // A point of the chart leads to its trace page, which now shows the value.
    await bar.click();
    await page.waitForURL('**/trace/**');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Total Revenue of Apple Inc., 2024');
    expect(await page.locator('main').textContent()).toContain('391,035,000,000 USD');
    await expectAccessiblePage(page, 'trace');

    // My data: the purchase, and the CSV download (free).
    await page.goto(`${live.app.url}/account/data`);
    expect(await page.locator('main').textContent()).toContain('391,035,000,000 USD');
    await expectAccessiblePage(page, 'my data');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'CSV of Revenues' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('corpdata-revenues.csv');
    const csv = readFileSync((await download.path()) ?? '', 'utf8')
      .trimEnd()
      .split('\r\n');
    expect(csv).toHaveLength(3);
    expect(csv[1]).toContain(`revenues,${APPLE.id},Apple Inc.,AAPL,2024,Total Revenue,391035000000,USD`);

    // Exactly one charge: 25 credits, named as the API names it.
    expect(await charges(account.accountId)).toEqual([-25]);
    await page.goto(`${live.app.url}/account/usage`);
    const ledger = page.getByRole('table', { name: 'Ledger, page 1' });
    expect(await ledger.locator('tbody tr').first().textContent()).toMatch(
      /Revenues: Apple Inc\., 2024: bought\s*console\s*-25\s*975/,
    );
    await context.close();
  });

  it('refuses a purchase the balance does not cover, saying so, and charges nothing', { timeout: 60_000 }, async () => {
    const account = await live.app.account({ password: PASSWORD, credits: 10 });
    const { context, page } = await signIn(account);
    await openApple(page);
    await page.locator('#revenues-2024').check();
    await page.getByRole('button', { name: 'Review purchase of Revenues' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe('Insufficient credits: this purchase costs 25, the balance is 10.');
    expect(await page.getByRole('button', { name: /Confirm/ }).count()).toBe(0);
    await expectAccessiblePage(page, 'refused buy');
    expect(await charges(account.accountId)).toEqual([]);
    await context.close();
  });

  it('refuses GHG emissions to an account without the ghg subscription, and charges nothing', { timeout: 60_000 }, async () => {
    const account = await live.app.account({ password: PASSWORD, credits: 1000, subscriptions: ['revenues'] });
    const { context, page } = await signIn(account);
    await openApple(page);
    const ghg = page.locator('#ghg-emissions');
    expect(await ghg.getByRole('alert').textContent()).toContain(
      'Subscription required: GHG emissions needs the ghg subscription, which this account does not hold.',
    );
    expect(await page.locator('#ghg-emissions-2020').isDisabled()).toBe(true);
    expect(await ghg.getByRole('button').count()).toBe(0);
    // Asked directly, the buy step refuses with the same reason.
    await page.goto(`${live.app.url}/account/companies/${APPLE.id}/buy?dataset=ghg-emissions&period=2020`);
    expect(await page.getByRole('alert').textContent()).toContain('needs the ghg subscription');
    expect(await page.getByRole('button', { name: /Confirm/ }).count()).toBe(0);
    expect(await charges(account.accountId)).toEqual([]);
    await context.close();
  });

  it('works at 390 px: every explorer page fits, with no sideways scrolling', { timeout: 60_000 }, async () => {
    const account = await live.app.account({ password: PASSWORD, credits: 1000 });
    expect((await live.app.get(`/api/v1/revenues?ticker=AAPL&reporting_period=2024`, account.key)).cost).toBe(25);
    expect((await live.app.get(`/api/v1/ghg-emissions?ticker=AAPL&reporting_period=2020`, account.key)).cost).toBe(25);
    const { context, page } = await signIn(account, 390, 844);
    const trace = await live.app.db.kysely
      .selectFrom('revenue_points')
      .select('point_id')
      .where('reporting_period', '=', 2024)
      .executeTakeFirstOrThrow();
    for (const path of [
      '/',
      '/account/companies?query=apple',
      `/account/companies/${APPLE.id}`,
      `/account/companies/${APPLE.id}/buy?dataset=revenues&period=2023`,
      '/account/data',
      '/account/usage',
      '/account/keys',
      `/trace/${trace.point_id}`,
    ]) {
      await page.goto(live.app.url + path);
      await expectAccessiblePage(page, path);
    }
    await context.close();
  });
});
