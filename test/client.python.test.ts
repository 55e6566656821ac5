import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_TOKEN } from '../src/auth/test-token.js';
import { DATASETS } from './support/datasets.js';
import { dialects } from './support/dialects.js';
import { closedPortUrl, type FlakyServer, startFlakyServer } from './support/flaky-server.js';
import { startApp, type TestApp } from './support/test-app.js';

const TESTS = fileURLToPath(new URL('../clients/python/test_corpdata.py', import.meta.url));

describe.each(dialects())('the Python client against a live server (%s)', (dialect) => {
  let t: TestApp;
  let flaky: FlakyServer;
  beforeAll(async () => {
    t = await startApp(dialect);
    flaky = await startFlakyServer(t.url);
  });
  afterAll(async () => {
    await flaky.close();
    await t.close();
  });

  it('passes its tests: every call, no data, problem details, retries, timeouts', async () => {
    const a = await t.account({ credits: 500 });
    const env = {
      PATH: process.env.PATH ?? '',
      CORPDATA_URL: t.url,
      CORPDATA_TEST_TOKEN: TEST_TOKEN,
      CORPDATA_KEY: a.key,
      CORPDATA_FLAKY_URL: flaky.url,
      CORPDATA_CLOSED_URL: await closedPortUrl(),
      CORPDATA_SUBSCRIPTIONS: JSON.stringify(Object.fromEntries(DATASETS.map((d) => [d.name, d.subscription]))),
    };
    // Standard library only: -I ignores the environment's Python paths and user site-packages; -B writes no __pycache__.
    const { code, output } = await new Promise<{ code: number; output: string }>((resolve) => {
      execFile('python3', ['-I', '-B', TESTS], { env, timeout: 60_000 }, (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : Number(error.code ?? 1), output: stdout + stderr }),
      );
    });
    expect(output).toMatch(/\nOK\n?$/);
    expect(code, output).toBe(0);
  }, 70_000);
});
