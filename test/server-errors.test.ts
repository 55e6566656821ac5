import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../src/accounts/accounts.js';
import { buildApp } from '../src/app.js';
import { createKey } from '../src/auth/api-keys.js';
import { openDatabase } from '../src/cli/open-database.js';
import { importBundle } from '../src/ingest/sources/bundle/import-bundle.js';
import { apiGet } from './support/api-client.js';
import { BUNDLES, SUBSCRIPTIONS } from './support/datasets.js';
import { dialects } from './support/dialects.js';
import { captureLog } from './support/log-capture.js';
import { FIXTURE_BUNDLE, startApp, type TestApp, testConfig } from './support/test-app.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

describe.each(dialects())('internal errors (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(dialect);
  });
  afterAll(() => t.close());

  it('answers 500 with only "Internal Server Error" and the request id when the database fails, and logs the cause', async () => {
    const database: TestDatabase = await createTestDatabase(dialect);
    const config = testConfig(database, { LOG_LEVEL: 'info' });
    const { db } = await openDatabase(config, BUNDLES);
    await importBundle(db.kysely, FIXTURE_BUNDLE, BUNDLES);
    const log = captureLog();
    const app = await buildApp({ config, db, logTo: log.stream });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const url = typeof address === 'object' && address !== null ? `http://127.0.0.1:${address.port}` : '';
    const account = await createAccount(db.kysely, { email: 'boom@example.com', credits: 100, now: new Date() }, SUBSCRIPTIONS);
    const { api_key } = await createKey(db.kysely, {
      accountId: account.account_id,
      name: 'k',
      secret: config.secret ?? '',
      now: new Date(),
    });
    const ok = await apiGet(url, '/api/v1/revenues?ticker=BETA&reporting_period=2024', api_key);
    expect(ok.status).toBe(200);
    await db.close();
    const res = await apiGet(url, '/api/v1/revenues?ticker=BETA&reporting_period=2023', api_key);
    const body = res.text;
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const id = res.headers.get('x-request-id') ?? '';
    expect(body).toBe(`Internal Server Error (request ${id})`);
    expect(res.headers.get('x-credit-cost')).toBeNull();
    // The error's own line is bound to the request (its logger is made when it first logs).
    const failed = log
      .text()
      .split('\n')
      .filter((line) => line.includes('request failed'))
      .map((line) => JSON.parse(line) as { reqId?: string; err?: unknown });
    expect(failed).toHaveLength(1);
    expect(failed[0]?.reqId).toBe(id);
    expect(failed[0]?.err).toBeDefined();
    expect(log.text()).not.toContain(api_key);
    // Asked for problem details, the same sentence in that form.
    const problem = await apiGet(url, '/api/v1/revenues?ticker=BETA&reporting_period=2022', api_key, {
      accept: 'application/problem+json',
    });
    expect(problem.status).toBe(500);
    expect(problem.json()).toMatchObject({
      status: 500,
      title: 'Internal server error',
      detail: `Internal Server Error (request ${problem.headers.get('x-request-id')})`,
    });
    await app.close();
    await database.drop();
  });

  it('serves other routes normally meanwhile (the failure was that app’s alone)', async () => {
    const { key } = await t.account();
    expect((await t.get('/api/v1/revenues?ticker=BETA&reporting_period=2023', key)).status).toBe(200);
  });
});
