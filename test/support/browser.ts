import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import type { Dialect } from '../../src/db/connect.js';
import { EXPLORER_BUNDLE, startApp, type TestApp } from './test-app.js';

/** Debian's chromium, never a downloaded browser; flags keep it from calling home. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  });
}

/** The app and the browser of {@link explorerInBrowser}, readable once the describe's tests run. */
export interface ExplorerInBrowser {
  readonly app: TestApp;
  readonly browser: Browser;
}

/**
 * Starts an app on `dialect` holding the explorer bundle (Apple's real figures) and a browser,
 * together, before the enclosing describe's tests; closes both after them. Call it in the body of
 * a describe.
 */
export function explorerInBrowser(dialect: Dialect): ExplorerInBrowser {
  let app: TestApp | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    [app, browser] = await Promise.all([startApp(dialect, { bundle: EXPLORER_BUNDLE }), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('explorerInBrowser: read before its beforeAll ran');
    return value;
  };
  return {
    get app() {
      return started(app);
    },
    get browser() {
      return started(browser);
    },
  };
}
