import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { explorerInBrowser } from './support/browser.js';
import { ConsoleClient, csrfOf } from './support/console-client.js';
import { dialects } from './support/dialects.js';
import { APPLE } from './support/fixture.js';
import { expectAccessiblePage } from './support/page-checks.js';

const PASSWORD = 'screenshot walk password';
const SCREENSHOTS = fileURLToPath(new URL('../docs/screenshots/', import.meta.url));
/** `UPDATE_SCREENSHOTS=1` rewrites docs/screenshots/{page}-{1280,390}.png and page-weights.md from this walk. */
const update = (dialect: string) => process.env.UPDATE_SCREENSHOTS === '1' && dialect === dialects()[0];
/** No page of the console may grow past this (HTML, its only resource: styles are inline, charts are SVG in it). */
const PAGE_BUDGET_BYTES = 64 * 1024;
const SIZES = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

describe.each(dialects())('every page, at 1280 and 390 px wide (%s)', (dialect) => {
  const live = explorerInBrowser(dialect);

  it('passes axe-core and the layout checks, stays within its weight, and is what docs/screenshots shows', {
    timeout: 180_000,
  }, async () => {
    // An analyst who bought Apple's revenue and net income 2020–2024 in the console and its 2020 emissions with a key.
    const account = await live.app.account({ password: PASSWORD, credits: 1000 });
    const c = new ConsoleClient(live.app.url);
    expect((await c.signIn(account.email, PASSWORD)).status).toBe(303);
    const company = `/account/companies/${APPLE.id}`;
    const csrf = csrfOf((await c.get(company)).text);
    expect((await c.post(`${company}/buy`, { csrf, dataset: 'revenues', periods: '2024,2023,2022,2021,2020' })).status).toBe(303);
    expect((await c.post(`${company}/buy`, { csrf, dataset: 'net-income', periods: '2024,2023,2022,2021,2020' })).status).toBe(
      303,
    );
    expect((await live.app.get('/api/v1/ghg-emissions?ticker=AAPL&reporting_period=2020', account.key)).cost).toBe(25);
    expect((await live.app.get('/api/v1/companies/search?query=apple', account.key)).cost).toBe(1);
    const point = async (period: number, document: string) =>
      (
        await live.app.db.kysely
          .selectFrom('revenue_points')
          .select('point_id')
          .where('reporting_period', '=', period)
          .where('document_id', 'like', `%${document}`)
          .executeTakeFirstOrThrow()
      ).point_id;

    const pages: ReadonlyArray<[name: string, path: string]> = [
      ['home', '/'],
      ['companies', '/account/companies?query=apple'],
      ['company', company],
      ['buy', `${company}/buy?dataset=revenues&period=2025`],
      ['data', '/account/data'],
      ['usage', '/account/usage'],
      ['keys', '/account/keys'],
      ['password', '/account/password'],
      ['trace', `/trace/${await point(2024, '05')}`],
      ['trace-unbought', `/trace/${await point(2025, '06')}`],
      ['sign-in', '/account/sign-in'],
    ];
    const weights = new Map<string, number>();
    for (const size of SIZES) {
      const context = await live.browser.newContext({ viewport: size });
      await context.addCookies([...c.cookies].map(([name, value]) => ({ name, value, url: live.app.url })));
      const signedOut = await live.browser.newContext({ viewport: size });
      const pageSignedIn = await context.newPage();
      const pageSignedOut = await signedOut.newPage();
      for (const [name, path] of pages) {
        const page = name === 'sign-in' ? pageSignedOut : pageSignedIn;
        const response = await page.goto(live.app.url + path);
        expect(response?.status(), path).toBe(200);
        const bytes = (await response?.body())?.length ?? 0;
        expect(bytes, path).toBeLessThan(PAGE_BUDGET_BYTES);
        weights.set(name, bytes);
        await expectAccessiblePage(page, `${path} at ${size.width} px`);
        if (update(dialect)) {
          mkdirSync(SCREENSHOTS, { recursive: true });
          await page.screenshot({ path: `${SCREENSHOTS}${name}-${size.width}.png`, fullPage: true });
        }
      }
      await Promise.all([context.close(), signedOut.close()]);
    }
    if (update(dialect)) {
      const rows = pages.map(
        ([name, path]) => `| ${name} | \`${path.replace(/[0-9a-f-]{36}/g, '{id}')}\` | ${weights.get(name)} |`,
      );
      writeFileSync(
        `${SCREENSHOTS}page-weights.md`,
        `# Page weights\n\nBytes of each page's HTML, its only resource (styles inline, charts as SVG inside it, no images,\nfonts or libraries), as served uncompressed for the walk of \`test/console.screenshots.test.ts\`.\n\n| page | path | bytes |\n|---|---|---|\n${rows.join('\n')}\n`,
      );
    }
  });
});
