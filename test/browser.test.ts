import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../src/accounts/accounts.js';
import { apiGet } from './support/api-client.js';
import { launchBrowser } from './support/browser.js';
import { SUBSCRIPTIONS } from './support/datasets.js';
import { dialects } from './support/dialects.js';
import { PUBLIC_URL, startApp, type TestApp } from './support/test-app.js';

const EMAIL = 'analyst@example.com';
const PASSWORD = 'a long browser password';

/** Scripts run inside the page, as text: the project's TypeScript has no DOM types (it is a server). */
const IN_PAGE = {
  /** Visible form controls without a label, the page's language and its number of h1. */
  accessibility: `(() => {
    const controls = [...document.querySelectorAll('input, select, textarea')]
      .filter((e) => !(e.type === 'hidden' || e.hidden));
    return {
      unlabelled: controls.filter((e) => (e.labels ? e.labels.length : 0) === 0 && !e.getAttribute('aria-label')).map((e) => e.outerHTML),
      lang: document.documentElement.lang,
      h1: document.querySelectorAll('h1').length,
    };
  })()`,
  activeId: `document.activeElement ? document.activeElement.id : ''`,
  activeOutline: 'getComputedStyle(document.activeElement).outlineStyle',
  clipboard: 'navigator.clipboard.readText()',
  /** Elements reaching past the right edge of the screen (a table or pre may scroll inside its own box). */
  overflowing: `(() => {
    const width = document.documentElement.clientWidth;
    return [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > width + 1 && e.parentElement.closest('table, pre') === null)
      .map((e) => e.tagName.toLowerCase() + '.' + e.className + ': ' + (e.textContent || '').slice(0, 30));
  })()`,
  sideways: 'document.documentElement.scrollWidth - document.documentElement.clientWidth',
};

/** Every visible form control has a label; the page has a language and one h1. */
async function expectAccessible(page: Page): Promise<void> {
  expect(await page.evaluate<unknown>(IN_PAGE.accessibility)).toEqual({ unlabelled: [], lang: 'en', h1: 1 });
}

describe.each(dialects())('the console and trace pages in a real browser (%s)', (dialect) => {
  let t: TestApp;
  let browser: Browser;
  beforeAll(async () => {
    [t, browser] = await Promise.all([startApp(dialect), launchBrowser()]);
    await createAccount(t.db.kysely, { email: EMAIL, password: PASSWORD, credits: 1000, now: new Date() }, SUBSCRIPTIONS);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const api = (path: string, key: string) => apiGet(t.url, path, key);

  it('signs in, creates a key, spends credits with it, sees usage and values, then revokes it', {
    timeout: 120_000,
  }, async () => {
    const context = await browser.newContext({
      viewport: { width: 1100, height: 900 },
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    const page = await context.newPage();

    // Sign in: /account sends a visitor to the form.
    await page.goto(`${t.url}/account`);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/account/sign-in');
    await expectAccessible(page);
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/account/keys');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('API keys');
    await expectAccessible(page);

    // Keyboard: Tab reaches the key name field, and focus is visible.
    let focused = '';
    for (let i = 0; i < 30 && focused !== 'key-name'; i += 1) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate<string>(IN_PAGE.activeId);
    }
    expect(focused).toBe('key-name');
    expect(await page.evaluate<string>(IN_PAGE.activeOutline)).toBe('solid');

    // Create a key: shown once, with a working copy button.
    await page.keyboard.type('reporting server');
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Key “reporting server” created');
    const key = await page.getByLabel('Your new API key').inputValue();
    expect(key).toMatch(/^eyJ[\w-]+\.[\w-]+\.[\w-]+$/);
    await page.getByRole('button', { name: 'Copy to clipboard' }).click();
    await expect.poll(() => page.locator('#copy-status').textContent()).toBe('Copied.');
    expect(await page.evaluate<string>(IN_PAGE.clipboard)).toBe(key);
    await expectAccessible(page);

    // Use it on the API: a first access (25), a repeat (1), a search (1).
    const first = await api('/api/v1/revenues?ticker=ALPH&reporting_period=2022', key);
    expect([first.status, first.headers.get('x-credit-cost')]).toEqual([200, '25']);
    const records = first.json<Array<{ traceability_source_url: string }>>();
    expect((await api('/api/v1/revenues?ticker=ALPH&reporting_period=2022', key)).headers.get('x-credit-cost')).toBe('1');
    expect((await api('/api/v1/companies/search?query=alpha', key)).headers.get('x-credit-cost')).toBe('1');

    // The console shows the new balance, the ledger, the chart and the purchase.
    await page.getByRole('link', { name: 'Balance and usage' }).click();
    await page.waitForURL('**/account/usage');
    expect(await page.locator('#balance').textContent()).toBe('973');
    const ledger = page.locator('table').first();
    await expect.poll(() => ledger.locator('tbody tr').count()).toBe(4);
    expect(await ledger.locator('tbody tr').first().textContent()).toContain('Company search');
    expect(await ledger.textContent()).toContain('Revenues: Alpha Industries AG, 2022');
    const today = new Date().toISOString().slice(0, 10);
    expect(await page.locator('svg rect title', { hasText: today }).textContent()).toBe(`${today}: 27 credits`);
    expect(await page.locator('table').nth(1).textContent()).toMatch(/Alpha Industries AG\s*ALPH \(XETR\)\s*2022/);
    await page
      .getByLabel('Show calls made with')
      .selectOption({ label: `reporting server (…${key.split('.')[2]?.slice(0, 8)}…)` });
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/key=/);
    await expect.poll(() => page.locator('table').first().locator('tbody tr').count()).toBe(3);
    await expectAccessible(page);

    // The keys page now knows when the key was last used, and never shows the key again.
    await page.getByRole('link', { name: 'API keys' }).click();
    const row = page.getByRole('row', { name: /reporting server/ });
    expect(await row.locator('td').nth(3).textContent()).toContain(today);
    expect(await page.content()).not.toContain(key);

    // The traceability page of a bought data point shows its values: here the restated 2022 figure.
    expect(records).toHaveLength(2);
    const traceUrl = records[1]?.traceability_source_url ?? '';
    expect(traceUrl.startsWith(`${PUBLIC_URL}/trace/`)).toBe(true);
    await page.goto(t.url + traceUrl.slice(PUBLIC_URL.length));
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent())
      .toBe('Total Revenue of Alpha Industries AG, 2022');
    const trace = await page.locator('main').textContent();
    expect(trace).toContain('23,693,850,000 USD');
    expect(trace).toContain('22,500,000,000 EUR');
    expect(trace).toContain('1.05306 USD per EUR');
    const restatements = page.getByRole('table');
    expect(await restatements.locator('tbody tr').first().textContent()).toContain('23,705,433,660 USD');
    expect(await restatements.locator('tbody tr').nth(1).textContent()).toContain('this page');
    await expectAccessible(page);

    // A second key, revoked through the confirmation step.
    await page.goto(`${t.url}/account/keys`);
    await page.getByLabel('Name').fill('old laptop');
    await page.getByLabel('Expires').selectOption({ label: '90 days' });
    await page.getByRole('button', { name: 'Create key' }).click();
    const oldKey = await page.getByLabel('Your new API key').inputValue();
    await page.getByRole('link', { name: 'Done: back to your keys' }).click();
    await page.getByRole('link', { name: 'Revoke key old laptop' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Revoke key “old laptop”?');
    await page.getByRole('button', { name: 'Revoke this key' }).click();
    await page.waitForURL(/revoked=/);
    expect(await page.getByRole('status').first().textContent()).toBe('Key “old laptop” is revoked.');
    expect(await page.getByRole('row', { name: /old laptop/ }).textContent()).toContain('revoked');
    expect((await api('/api/v1/companies/search?query=beta', oldKey)).status).toBe(401);

    // Revoke the key in use: the API refuses it at once.
    await page.getByRole('link', { name: 'Revoke key reporting server' }).click();
    await page.getByRole('button', { name: 'Revoke this key' }).click();
    await page.waitForURL(/revoked=/);
    const refused = await api('/api/v1/revenues?ticker=ALPH&reporting_period=2022', key);
    expect(refused.status).toBe(401);
    expect(refused.text).toBe('Revoked or unknown API key.');

    // Sign out: the console is closed again.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/account/sign-in');
    await page.goto(`${t.url}/account/keys`);
    expect(new URL(page.url()).pathname).toBe('/account/sign-in');
    await context.close();
  });

  it('fits a phone screen without sideways scrolling', { timeout: 60_000 }, async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await page.goto(`${t.url}/account/sign-in`);
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/account/keys');
    const point = await t.db.kysely.selectFrom('revenue_points').select('point_id').executeTakeFirstOrThrow();
    for (const path of ['/account/keys', '/account/usage', '/account/password', `/trace/${point.point_id}`]) {
      await page.goto(t.url + path);
      expect(await page.evaluate<string[]>(IN_PAGE.overflowing), path).toEqual([]);
      expect(await page.evaluate<number>(IN_PAGE.sideways), path).toBeLessThanOrEqual(0);
    }
    await context.close();
  });
});
