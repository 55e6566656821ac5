import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.js';
import { dialects } from './support/dialects.js';
import { PUBLIC_URL, startApp, type TestApp } from './support/test-app.js';

const SCREENSHOTS = fileURLToPath(new URL('../docs/screenshots/', import.meta.url));
const ERROR_STATUSES = [400, 401, 402, 403, 404, 405, 406, 408, 413, 414, 415, 417, 429, 431, 500, 503];
/**
 * A phone's page height allowed per operation, folded: a heading and a one-line summary each. The
 * page grows with the datasets the registry serves, but an operation that does not fold costs far more.
 */
const PHONE_HEIGHT_PER_OPERATION = 250;

type Media = { example?: unknown; schema?: { enum?: unknown[] } };
type Doc = {
  paths: Record<
    string,
    Record<
      string,
      {
        operationId: string;
        parameters?: Array<{ name: string; schema: { enum?: unknown[] } }>;
        responses: Record<string, { content?: Record<string, Media> }>;
      }
    >
  >;
};

/** The text of HTML: tags dropped, the escapes html.ts and the page's literals use decoded. */
function text(fragment: string): string {
  return fragment
    .replace(/<[^>]*>/g, '')
    .replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** Scripts run inside the page, as text: the project's TypeScript has no DOM types (it is a server). */
const IN_PAGE = {
  height: 'document.documentElement.scrollHeight',
  sideways: 'document.documentElement.scrollWidth - document.documentElement.clientWidth',
  /** Elements reaching past the right edge, and boxes that scroll sideways (a keyboard could not scroll them). */
  overflowing: `(() => {
    const width = document.documentElement.clientWidth;
    return [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > width + 1 || e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible')
      .map((e) => e.tagName.toLowerCase() + '.' + e.className + ': ' + (e.textContent || '').slice(0, 30));
  })()`,
  /** Field and parameter rows of every list, folded or not, whose meaning is blank. */
  blankMeanings: `[...document.querySelectorAll('dl.fields > div')]
    .filter((row) => (row.querySelector('dd')?.textContent ?? '').trim() === '')
    .map((row) => row.querySelector('dt')?.textContent)`,
  fieldRows: `document.querySelectorAll('dl.fields > div').length`,
  /**
   * What an accessibility checker would refuse here: a missing language, not one h1, a skipped heading
   * level, a link or summary without a name, a duplicate id, an in-page link to nothing.
   */
  accessibility: `(() => {
    const levels = [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => Number(h.tagName[1]));
    const ids = [...document.querySelectorAll('[id]')].map((e) => e.id);
    return {
      lang: document.documentElement.lang,
      h1: document.querySelectorAll('h1').length,
      skippedLevels: levels.filter((l, i) => i > 0 && l > levels[i - 1] + 1).length,
      unnamed: [...document.querySelectorAll('a, summary, button')].filter((e) => (e.textContent ?? '').trim() === '').length,
      duplicateIds: ids.filter((id, i) => ids.indexOf(id) !== i),
      brokenLinks: [...document.querySelectorAll('a[href^="#"]')].map((a) => a.getAttribute('href').slice(1)).filter((id) => !document.getElementById(id)),
    };
  })()`,
  active: `(() => { const e = document.activeElement; return { tag: e.tagName.toLowerCase(), href: e.getAttribute('href'), text: e.textContent, outline: getComputedStyle(e).outlineStyle }; })()`,
  openDetails: `document.querySelectorAll('details[open]').length`,
};

describe('the API reference page (/docs)', () => {
  let t: TestApp;
  let browser: Browser;
  let doc: Doc;
  let body: string;
  let operations: Array<{ path: string; operationId: string; responses: Doc['paths'][string][string]['responses'] }>;
  beforeAll(async () => {
    // The page is drawn from the OpenAPI document only: one database kind, no data.
    [t, browser] = await Promise.all([startApp(dialects()[0] ?? 'sqlite', { bundle: null }), launchBrowser()]);
    doc = (await t.get('/api/v1/openapi.json')).json<Doc>();
    operations = Object.entries(doc.paths).flatMap(([path, methods]) => Object.values(methods).map((op) => ({ path, ...op })));
    const res = await t.get('/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    body = res.text;
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** The HTML of one operation's section. */
  const section = (operationId: string): string => {
    const start = body.indexOf(`<section class="op" aria-labelledby="${operationId}">`);
    expect(start, operationId).toBeGreaterThanOrEqual(0);
    return body.slice(start, body.indexOf('</section>', start));
  };

  it('has a table of contents linking to every operation of the OpenAPI document', () => {
    const nav = /<nav class="toc"[\s\S]*?<\/nav>/.exec(body)?.[0] ?? '';
    expect(operations.length).toBeGreaterThanOrEqual(10);
    for (const { operationId } of operations) {
      expect(nav, operationId).toContain(`href="#${operationId}"`);
      expect(body.split(`id="${operationId}"`), operationId).toHaveLength(2);
    }
    for (const anchor of ['start', 'headers', 'errors', 'mic-codes']) expect(nav).toContain(`href="#${anchor}"`);
  });

  it('shows for every operation a curl request and the response the document gives as its example', () => {
    for (const { path, operationId, responses } of operations) {
      const html = text(section(operationId));
      const curl = new RegExp(`curl -H "Authorization: Bearer \\$CORPDATA_KEY" "${PUBLIC_URL}([^"]+)"`).exec(html);
      expect(curl, operationId).not.toBeNull();
      const url = new URL(`${PUBLIC_URL}${curl?.[1]}`);
      expect(url.pathname, operationId).toMatch(new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`));
      const example = responses['200']?.content?.['application/json']?.example;
      expect(example, operationId).toBeDefined();
      expect(html, operationId).toContain(
        `HTTP/1.1 200 OK\nContent-Type: application/json\n\n${JSON.stringify(example, null, 2)}`,
      );
    }
    // The examples name a real company of the demo, and the calls are the document's.
    expect(text(section('getRevenues'))).toContain(`"${PUBLIC_URL}/api/v1/revenues?ticker=AAPL&reporting_period=-1"`);
    expect(text(section('getRevenues'))).toContain('"metric": "Total Revenue"');
    expect(text(section('getRevenues'))).toContain('"value": 416161000000');
    expect(text(body)).toContain('Apple Inc.');
  });

  it('gives every field a meaning, the blanks of the schemas included', () => {
    const page = text(body);
    expect(page).toMatch(/metric always "Total Revenue"\s*What the figure measures: always Total Revenue\./);
    expect(page).toMatch(/ccy always "USD"\s*Currency of value: always USD\./);
    expect(page).toContain('The fiscal year the figure covers: the calendar year in which the fiscal year ends');
    // No row of a field list is without its meaning (over HTTP; the browser test below checks the DOM too).
    const rows = body.match(/<div class="field">[\s\S]*?<\/div>/g) ?? [];
    expect(rows.length).toBeGreaterThan(100);
    expect(rows.filter((row) => text(/<dd>([\s\S]*?)<\/dd>/.exec(row)?.[1] ?? '').trim() === '')).toEqual([]);
  });

  it('lists the MIC codes once, A to Z, each with its exchange and country', () => {
    const codes = doc.paths['/api/v1/revenues']?.get?.parameters?.find((p) => p.name === 'mic_code')?.schema.enum as string[];
    expect(codes.length).toBeGreaterThan(100);
    const tables = body.match(/<table class="mics">[\s\S]*?<\/table>/g) ?? [];
    expect(tables).toHaveLength(1);
    const rows = [...(tables[0] ?? '').matchAll(/<tr><td><code>(\w{4})<\/code><\/td><td>([^<]*)<\/td><td>([^<]*)<\/td><\/tr>/g)];
    expect(rows.map((r) => r[1])).toEqual([...codes].sort());
    expect(rows.filter((r) => r[2] === '').map((r) => r[1])).toEqual([]);
    expect(rows.filter((r) => r[3] === '').map((r) => r[1])).toEqual(['XXXX']);
    expect(text(tables[0] ?? '')).toContain('XNYSNew York Stock Exchange, Inc.United States');
    // Outside its section no list of codes: only the odd code an example names.
    const rest = body.replace(/<section aria-labelledby="mic-codes">[\s\S]*?<\/section>/, '');
    expect(codes.filter((c) => new RegExp(`\\b${c}\\b`).test(rest)).length).toBeLessThanOrEqual(3);
  });

  it('explains every error status at the anchor its problem details link to, and both forms of errors', () => {
    for (const status of ERROR_STATUSES) {
      const entry = new RegExp(`<div id="error-${status}">([\\s\\S]*?)</div>`).exec(body);
      expect(entry, `error-${status}`).not.toBeNull();
      expect(text(entry?.[1] ?? '').length, `error-${status}`).toBeGreaterThan(30);
      expect(body.split(`id="error-${status}"`)).toHaveLength(2);
    }
    // Every problem `type` the document shows points at an anchor of the page.
    for (const { responses } of operations) {
      for (const response of Object.values(responses)) {
        const problem = response.content?.['application/problem+json']?.example as { type: string } | undefined;
        if (problem !== undefined) expect(body).toContain(`id="${problem.type.replace('/docs#', '')}"`);
      }
    }
    const errors = text(/<section aria-labelledby="errors">[\s\S]*?<\/section>/.exec(body)?.[0] ?? '');
    expect(errors).toContain('plain-text sentence');
    expect(errors).toContain('Accept: application/problem+json');
    expect(errors).toContain('RFC 9457');
    for (const member of [
      'type',
      'title',
      'status',
      'detail',
      'instance',
      'param',
      'required_subscription',
      'available_periods',
      'did_you_mean',
    ])
      expect(errors).toContain(member);
    expect(errors).toContain('Content-Type: application/problem+json');
  });

  /** The checks every width shares: the layout, the field rows, and what an accessibility checker looks at. */
  async function expectSound(page: Page, label: string): Promise<void> {
    expect(await page.evaluate<number>(IN_PAGE.sideways), label).toBeLessThanOrEqual(0);
    expect(await page.evaluate<string[]>(IN_PAGE.overflowing), label).toEqual([]);
    expect(await page.evaluate<number>(IN_PAGE.fieldRows), label).toBeGreaterThan(100);
    expect(await page.evaluate<string[]>(IN_PAGE.blankMeanings), label).toEqual([]);
    expect(await page.evaluate<unknown>(IN_PAGE.accessibility), label).toEqual({
      lang: 'en',
      h1: 1,
      skippedLevels: 0,
      unnamed: 0,
      duplicateIds: [],
      brokenLinks: [],
    });
  }

  it('fits a phone: at most 250 px tall per operation at 390 px wide, nothing sideways, even with every fold open', {
    timeout: 60_000,
  }, async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await page.goto(`${t.url}/docs`);
    const operations = Object.values(doc.paths).flatMap((methods) => Object.keys(methods)).length;
    expect(operations).toBeGreaterThan(20);
    expect(await page.evaluate<number>(IN_PAGE.height)).toBeLessThanOrEqual(PHONE_HEIGHT_PER_OPERATION * operations);
    await expectSound(page, 'phone');
    if (process.env.UPDATE_SCREENSHOTS === '1') {
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: `${SCREENSHOTS}reference-390.png` });
    }
    await page.evaluate('for (const d of document.querySelectorAll("details")) d.open = true');
    expect(await page.evaluate<number>(IN_PAGE.sideways), 'phone, unfolded').toBeLessThanOrEqual(0);
    expect(await page.evaluate<string[]>(IN_PAGE.overflowing), 'phone, unfolded').toEqual([]);
    await context.close();
  });

  it('opens the section a contents link leads to, its heading in view at 390 px, and folds the one opened before', {
    timeout: 60_000,
  }, async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await page.goto(`${t.url}/docs`);
    const folded = await page.evaluate<number>(IN_PAGE.height);
    /** The fold of a section: the one its heading is in (a dataset's periods, history, batch), or the section's own. */
    const foldOpen = (id: string) =>
      page.evaluate<boolean>(
        `(() => { const h = document.getElementById(${JSON.stringify(id)}); return (h.closest('details') ?? h.closest('section').querySelector(':scope > details')).open; })()`,
      );
    const inView = async (id: string) => {
      const box = await page.locator(`#${id}`).boundingBox();
      return box !== null && box.y >= 0 && box.y + box.height <= 844;
    };
    let previous: string | undefined;
    for (const id of ['getRevenuesHistory', 'getGhgEmissions', 'getNetIncomeBatch', 'mic-codes', 'getRevenues']) {
      await page.locator(`nav.toc a[href="#${id}"]`).click();
      await expect.poll(() => new URL(page.url()).hash).toBe(`#${id}`);
      // The fold opens on the hashchange event, which follows the new URL.
      await expect.poll(() => foldOpen(id), { message: id }).toBe(true);
      await expect.poll(() => inView(id), { message: id }).toBe(true);
      if (previous !== undefined) expect(await foldOpen(previous), `${previous} after ${id}`).toBe(false);
      previous = id;
      // One section open at a time: the page stays a few screens long.
      expect(await page.evaluate<number>(IN_PAGE.openDetails), id).toBe(1);
    }
    const opened = await page.evaluate<number>(IN_PAGE.height);
    expect(opened).toBeLessThan(folded + 6_000);
    await expectSound(page, 'phone, a section open');
    // A shared link to a section opens it on arrival.
    await page.goto(`${t.url}/docs#getGhgIntensityPeriods`);
    await expect.poll(() => foldOpen('getGhgIntensityPeriods')).toBe(true);
    await expect.poll(() => inView('getGhgIntensityPeriods')).toBe(true);
    await context.close();
  });

  it('works by keyboard on a wide screen: contents to an operation, its fold opened with Enter', {
    timeout: 60_000,
  }, async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${t.url}/docs`);
    await expectSound(page, 'wide');
    if (process.env.UPDATE_SCREENSHOTS === '1') await page.screenshot({ path: `${SCREENSHOTS}reference-1280.png` });

    // Tab to the contents' link to the revenues endpoint; focus is visible; Enter goes there.
    let active = { tag: '', href: null as string | null, text: '', outline: '' };
    for (let i = 0; i < 20 && active.href !== '#getRevenues'; i += 1) {
      await page.keyboard.press('Tab');
      active = await page.evaluate<typeof active>(IN_PAGE.active);
    }
    expect(active.href).toBe('#getRevenues');
    expect(active.outline).toBe('solid');
    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).hash).toBe('#getRevenues');
    await expect.poll(() => page.evaluate<boolean>("document.querySelector('#getRevenues ~ details').open")).toBe(true);
    // The link opened the operation's fold; the next stop is its summary, and Enter folds it again.
    await expect(page.locator('#getRevenues ~ details pre').first().textContent()).resolves.toContain('curl -H');
    expect(await page.evaluate<boolean>("document.querySelector('#getRevenues ~ details').open")).toBe(true);
    await page.keyboard.press('Tab');
    active = await page.evaluate<typeof active>(IN_PAGE.active);
    expect([active.tag, active.text]).toEqual(['summary', 'Example, parameters and fields']);
    expect(active.outline).toBe('solid');
    const before = await page.evaluate<number>(IN_PAGE.openDetails);
    await page.keyboard.press('Enter');
    expect(await page.evaluate<number>(IN_PAGE.openDetails)).toBe(before - 1);

    // An error anchor a problem links to is there and scrolled to.
    await page.goto(`${t.url}/docs#error-402`);
    expect(await page.locator('#error-402').isVisible()).toBe(true);
    expect(await page.locator('#error-402').textContent()).toContain('Insufficient credits');
    await context.close();
  });
});
