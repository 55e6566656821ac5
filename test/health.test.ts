import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../src/db/connect.js';
import { corpdata, freePort, startServer } from './support/cli.js';
import { dialects } from './support/dialects.js';
import { FIXTURE_BUNDLE, startApp, type TestApp } from './support/test-app.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

describe.each(dialects())('health probes and shutdown (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(dialect);
  });
  afterAll(() => t.close());

  it('answers /healthz and /readyz without credentials', async () => {
    expect(await (await fetch(`${t.url}/healthz`)).text()).toBe('ok');
    const ready = await fetch(`${t.url}/readyz`);
    expect([ready.status, await ready.text()]).toEqual([200, 'ready']);
  });

  it('reports 503 on /readyz once the database is gone', async () => {
    const other = await startApp(dialect);
    await other.db.close();
    const res = await fetch(`${other.url}/readyz`);
    expect(res.status).toBe(503);
    await other.app.close();
    await other.database.drop();
  });

  it('finishes in-flight requests on SIGTERM, then exits 0', async () => {
    const database: TestDatabase = await createTestDatabase(dialect);
    const env = { CORPDATA_DATABASE: database.url, CORPDATA_DEMO: 'off' };
    await corpdata(['migrate'], env);
    await corpdata(['import', FIXTURE_BUNDLE], env);
    await corpdata(['accounts', 'create', '--email', 'drain@example.com', '--credits', '100000'], env);
    const { api_key } = (await corpdata(['keys', 'create', 'drain@example.com'], env)).json<{ api_key: string }>();
    const server = await startServer(env, await freePort());
    const inFlight = Array.from({ length: 40 }, () =>
      fetch(`${server.url}/api/v1/companies/list`, { headers: { authorization: `Bearer ${api_key}` } }).then((r) => r.status),
    );
    await new Promise((r) => setTimeout(r, 5));
    const exit = server.stop();
    const statuses = await Promise.all(inFlight.map((p) => p.catch(() => 'refused')));
    expect(await exit).toBe(0);
    // Requests already accepted are answered; none is cut off half-way.
    expect(statuses.every((s) => s === 200 || s === 503 || s === 'refused')).toBe(true);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(0);
    const check = connect(database.config);
    const accounts = await check.kysely.selectFrom('accounts').select('balance').executeTakeFirstOrThrow();
    expect(Number(accounts.balance)).toBe(100_000 - 100 * statuses.filter((s) => s === 200).length);
    await check.close();
    await database.drop();
  }, 60_000);
});

describe.each(dialects().filter((d) => d === 'postgres'))('PostgreSQL connection settings (%s)', (dialect) => {
  it('cancels statements that outlive the statement timeout', async () => {
    const database = await createTestDatabase(dialect);
    const db = connect(database.config, { statementTimeoutMs: 100 });
    await expect(sql`select pg_sleep(1)`.execute(db.kysely)).rejects.toThrow(/statement timeout/);
    await db.close();
    await database.drop();
  });
});
