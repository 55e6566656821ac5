import { once } from 'node:events';
import { connect as connectTcp } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/cli/open-database.js';
import { connect } from '../src/db/connect.js';
import { corpdata, freePort, startServer } from './support/cli.js';
import { BUNDLES } from './support/datasets.js';
import { dialects } from './support/dialects.js';
import { FIXTURE_BUNDLE, startApp, type TestApp, testConfig } from './support/test-app.js';
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

  it('answers a request it was still receiving when SIGTERM came', async () => {
    const database = await createTestDatabase(dialect);
    const server = await startServer({ CORPDATA_DATABASE: database.url, CORPDATA_DEMO: 'off' }, await freePort());
    const socket = connectTcp(Number(new URL(server.url).port), '127.0.0.1');
    await once(socket, 'connect');
    let reply = '';
    socket.on('data', (d) => {
      reply += String(d);
    });
    const closed = once(socket, 'close');
    const body = 'email=someone%40example.com&password=not-the-password&csrf=none';
    socket.write(
      'POST /account/sign-in HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n' +
        `Content-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
    );
    await sleep(200);
    const exit = server.stop();
    await sleep(300);
    expect(server.process.exitCode).toBeNull(); // still waiting for this request
    socket.write(body.slice(10));
    await closed;
    // Answered as it would have been without the signal (the form lacks a valid CSRF token).
    expect(reply).toMatch(/^HTTP\/1\.1 403 /);
    expect(await exit).toBe(0);
    await database.drop();
  }, 30_000);

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
    // The signal comes once the server answers (a loaded machine may take longer than any fixed
    // pause to accept the first), while the others are still in flight.
    await Promise.race(inFlight);
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
  it('cancels statements that outlive CORPDATA_STATEMENT_TIMEOUT_MS', async () => {
    const database = await createTestDatabase(dialect);
    const { db } = await openDatabase(testConfig(database, { CORPDATA_STATEMENT_TIMEOUT_MS: '100' }), BUNDLES);
    await expect(sql`select pg_sleep(1)`.execute(db.kysely)).rejects.toThrow(/statement timeout/);
    await db.close();
    await database.drop();
  });

  it('survives the server dropping its connections (a restart, a failover) and reconnects', async () => {
    const database = await createTestDatabase(dialect);
    const env = { CORPDATA_DATABASE: database.url, CORPDATA_DEMO: 'off' };
    await corpdata(['migrate'], env);
    const server = await startServer(env, await freePort());
    // Several requests at once leave several idle connections in the pool.
    await Promise.all(Array.from({ length: 8 }, () => fetch(`${server.url}/readyz`)));
    const admin = connect(database.config);
    const { rows } = await sql<{ ended: boolean }>`
      select pg_terminate_backend(pid) as ended from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid()`.execute(admin.kysely);
    await admin.close();
    expect(rows.length).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 300));
    expect(server.process.exitCode).toBeNull();
    const ready = await fetch(`${server.url}/readyz`);
    expect([ready.status, await ready.text()]).toEqual([200, 'ready']);
    expect(server.output()).toMatch(/database connection lost/);
    expect(await server.stop()).toBe(0);
    await database.drop();
  }, 60_000);

  it('closes every connection before close() resolves, so dropping the database right after disturbs nobody', async () => {
    // Were a connection still closing, the forced drop would end it with an error nobody handles,
    // which fails this run.
    for (let round = 0; round < 10; round++) {
      const database = await createTestDatabase(dialect);
      const db = connect(database.config);
      await Promise.all(Array.from({ length: 5 }, () => sql`select pg_sleep(0.02)`.execute(db.kysely)));
      await db.close();
      await database.drop();
    }
    await new Promise((r) => setTimeout(r, 200));
  });
});
