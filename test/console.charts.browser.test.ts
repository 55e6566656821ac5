import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { explorerInBrowser } from './support/browser.js';
import { ConsoleClient, csrfOf } from './support/console-client.js';
import { dialects } from './support/dialects.js';
import { APPLE } from './support/fixture.js';
import { expectAccessiblePage } from './support/page-checks.js';
import type { TestAccount } from './support/test-app.js';

const PASSWORD = 'chart browser password';
const COMPANY = `/account/companies/${APPLE.id}`;
const SCREENSHOTS = fileURLToPath(new URL('../docs/screenshots/', import.meta.url));
/** `UPDATE_SCREENSHOTS=1` rewrites docs/screenshots/company-charts-{1280,390}.png from this test. */
const update = (dialect: string) => process.env.UPDATE_SCREENSHOTS === '1' && dialect === dialects()[0];

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The bars of a chart's panels, in CSS pixels, with their year. */
function barsOf(page: Page, chart: string): Promise<Array<Box & { year: number }>> {
  return page.$$eval(`#${chart} svg rect`, (rects) =>
    rects.map((r) => {
      const b = r.getBoundingClientRect();
      return { x: b.x, y: b.y, width: b.width, height: b.height, year: Number(r.getAttribute('data-year')) };
    }),
  );
}

describe.each(dialects())('the company page’s charts in a real browser (%s)', (dialect) => {
  const live = explorerInBrowser(dialect);

  /** An account that bought Apple's revenue 2020, 2021 and 2024 (a gap: 2022, 2023) and its 2020 emissions. */
  async function analyst(): Promise<{ account: TestAccount; cookies: Map<string, string> }> {
    const account = await live.app.account({ password: PASSWORD, credits: 1000 });
    const c = new ConsoleClient(live.app.url);
    expect((await c.signIn(account.email, PASSWORD)).status).toBe(303);
    const csrf = csrfOf((await c.get(COMPANY)).text);
    expect((await c.post(`${COMPANY}/buy`, { csrf, dataset: 'revenues', periods: '2024,2021,2020' })).status).toBe(303);
    expect((await c.post(`${COMPANY}/buy`, { csrf, dataset: 'ghg-emissions', periods: '2020' })).status).toBe(303);
    return { account, cookies: c.cookies };
  }

  it.each([
    [1280, 800],
    [390, 844],
  ])(
    'draws years to scale and every scope visible, labels legible and whole, at %i px',
    { timeout: 120_000 },
    async (width, height) => {
      const { cookies } = await analyst();
      const context = await live.browser.newContext({ viewport: { width, height } });
      await context.addCookies([...cookies].map(([name, value]) => ({ name, value, url: live.app.url })));
      const page = await context.newPage();
      await page.goto(live.app.url + COMPANY);

      // Revenue: 2020, 2021, 2024 bought; the bars' centres are proportional to the years (a gap where 2022 and 2023 are).
      const bars = await barsOf(page, 'chart-revenues');
      const centre = (year: number) => {
        const b = bars.find((r) => r.year === year);
        return (b?.x ?? Number.NaN) + (b?.width ?? 0) / 2;
      };
      expect(bars.map((b) => b.year).sort()).toEqual([2020, 2021, 2024]);
      const perYear = centre(2021) - centre(2020);
      expect(perYear).toBeGreaterThan(10);
      expect(centre(2024) - centre(2020)).toBeCloseTo(4 * perYear, 0);

      // Emissions 2020: Scope 1 (47,430 t) and Scope 3 (22.55 Mt), one panel each: both bars visible.
      const scopes = await barsOf(page, 'chart-ghg-emissions');
      expect(scopes.length).toBe(2);
      for (const bar of scopes) expect(bar.height).toBeGreaterThanOrEqual(2);
      expect(await page.locator('#chart-ghg-emissions svg').count()).toBe(2);

      // Every label of every chart: at least 12 px tall as drawn, and inside its drawing (nothing clipped).
      const labels = await page.$$eval('figure.chart svg text', (texts) =>
        texts.map((text) => {
          const svg = text.ownerSVGElement?.getBoundingClientRect();
          const b = text.getBoundingClientRect();
          return {
            text: text.textContent,
            height: b.height,
            inside:
              svg !== undefined &&
              b.left >= svg.left - 0.5 &&
              b.right <= svg.right + 0.5 &&
              b.top >= svg.top - 0.5 &&
              b.bottom <= svg.bottom + 0.5,
          };
        }),
      );
      expect(labels.length).toBeGreaterThan(10);
      for (const label of labels) {
        expect(label.height, `${label.text} at ${width} px`).toBeGreaterThanOrEqual(12);
        expect(label.inside, `${label.text} at ${width} px`).toBe(true);
      }
      // Year labels never overlap one another.
      const years = await page.$$eval('#chart-revenues svg text[text-anchor="middle"]', (texts) =>
        texts.map((x) => x.getBoundingClientRect()).map((b) => [b.left, b.right] as const),
      );
      for (let i = 1; i < years.length; i++) expect(years[i]?.[0] ?? 0).toBeGreaterThan(years[i - 1]?.[1] ?? 0);
      await expectAccessiblePage(page, `company charts at ${width} px`);
      if (update(dialect)) {
        mkdirSync(SCREENSHOTS, { recursive: true });
        await page.locator('#ghg-emissions').screenshot({ path: `${SCREENSHOTS}company-charts-ghg-${width}.png` });
        await page.locator('#revenues').screenshot({ path: `${SCREENSHOTS}company-charts-revenues-${width}.png` });
      }
      await context.close();
    },
  );

  it.each([
    [1280, 800],
    [390, 844],
  ])('shows the purchase’s confirmation in view after buying, at %i px', { timeout: 120_000 }, async (width, height) => {
    const account = await live.app.account({ password: PASSWORD, credits: 1000 });
    const c = new ConsoleClient(live.app.url);
    expect((await c.signIn(account.email, PASSWORD)).status).toBe(303);
    const context = await live.browser.newContext({ viewport: { width, height } });
    await context.addCookies([...c.cookies].map(([name, value]) => ({ name, value, url: live.app.url })));
    const page = await context.newPage();
    await page.goto(live.app.url + COMPANY);
    await page.locator('#net-income-2022').check();
    await page.getByRole('button', { name: 'Review purchase of Net income' }).click();
    await page.getByRole('button', { name: 'Confirm: pay 25 credits' }).click();
    await page.waitForURL(/bought=net-income/);
    const status = page.getByRole('status').filter({ hasText: 'Bought: Net income 2022.' });
    expect(await status.count()).toBe(1);
    const box = await status.boundingBox();
    expect(box).not.toBeNull();
    expect(box?.y ?? -1).toBeGreaterThanOrEqual(0);
    expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(height);
    await expectAccessiblePage(page, `company after a purchase at ${width} px`);
    if (update(dialect)) await page.screenshot({ path: `${SCREENSHOTS}company-bought-${width}.png` });
    await context.close();
  });
});
