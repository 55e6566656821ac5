import { it } from 'vitest';
import { launchBrowser } from './support/browser.js';
import { startApp } from './support/test-app.js';

it('measure', { timeout: 60_000 }, async () => {
  const t = await startApp('sqlite');
  const browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await page.goto(`${t.url}/docs`);
  const out = await page.evaluate<string>(
    `(() => [document.documentElement.scrollHeight, ...[...document.querySelectorAll('body > *, main > *, section, nav, details#headers')].map((e) => e.tagName + '#' + (e.id || e.getAttribute('aria-labelledby') || '') + ' ' + Math.round(e.getBoundingClientRect().height))].join('\\n'))()`,
  );
  console.log(out);
  await browser.close();
  await t.close();
});
