import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../src/accounts/accounts.js';
import { buildApp } from '../src/app.js';
import { createKey } from '../src/auth/api-keys.js';
import { openDatabase } from '../src/cli/open-database.js';
import { loadConfig } from '../src/config.js';
import { bundlesOf, subscriptionsOf } from '../src/datasets/dataset-list.js';
import { connect, type Db } from '../src/db/connect.js';
import { isConnectionLost } from '../src/db/connection-lost.js';
import { NoWritableServer } from '../src/db/writable-host.js';
import { importBundle } from '../src/ingest/sources/bundle/import-bundle.js';
import { type ReplicatedPostgres, startReplicatedPostgres } from '../src/scratch/replicated-postgres.js';
import { runFailover } from '../src/tools/failover.js';
import { DATASETS } from './support/datasets.js';
import { expectFailoverKept } from './support/failover-report.js';
import { FIXTURE_BUNDLE, TEST_SECRET } from './support/test-app.js';

const DATABASE = 'corpdata_failover';
const COMPANY = '00000000-0000-4000-8000-000000000001';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The port of the server a connection is on. */
async function serverPort(db: Db): Promise<number> {
  if (db.dialect !== 'postgres') throw new Error('PostgreSQL only');
  const { rows } = await db.pool.query<{ port: number }>('select inet_server_port() as port');
  return Number(rows[0]?.port);
}

/**
 * A primary and its synchronous hot standby (pg_basebackup), each a real PostgreSQL server: the
 * multi-host URL's writable server is found, a call whose connection dies answers 503, and the
 * promoted standby is found without a restart (design §21.1–2). `npm run failover` does the same
 * under load.
 */
describe('PostgreSQL failover through a multi-host URL', () => {
  let cluster: ReplicatedPostgres;
  let app: FastifyInstance;
  let db: Db;
  let url: string;

  beforeAll(async () => {
    cluster = startReplicatedPostgres({ synchronous: true });
    cluster.psql(cluster.primary, `create database ${DATABASE}`);
    const config = loadConfig({
      CORPDATA_DATABASE: cluster.multiHostUrl(DATABASE),
      CORPDATA_DEMO: 'off',
      CORPDATA_SECRET: TEST_SECRET,
      LOG_LEVEL: 'silent',
      CORPDATA_RATE_LIMIT: '1000000/s',
    });
    db = (await openDatabase(config, bundlesOf(DATASETS))).db;
    await importBundle(db.kysely, FIXTURE_BUNDLE, bundlesOf(DATASETS));
    app = await buildApp({ config, db, datasets: DATASETS, logTo: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (address === null || typeof address === 'string') throw new Error('no address');
    url = `http://127.0.0.1:${address.port}`;
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await db?.close();
    cluster?.remove();
  });

  const account = async (credits: number) => {
    const a = await createAccount(
      db.kysely,
      { email: `failover${Math.random()}@example.com`, credits, now: new Date() },
      subscriptionsOf(DATASETS),
    );
    const k = await createKey(db.kysely, { accountId: a.account_id, name: 't', secret: TEST_SECRET, now: new Date() });
    return { accountId: a.account_id, key: k.api_key };
  };
  const revenues = (key: string, period = 2023) =>
    fetch(`${url}/api/v1/revenues?company_id=${COMPANY}&reporting_period=${period}`, {
      headers: { authorization: `Bearer ${key}` },
    });
  const balanceOf = async (accountId: string) => {
    const row = await db.kysely.selectFrom('accounts').select('balance').where('account_id', '=', accountId).executeTakeFirst();
    return Number(row?.balance);
  };

  it('connects to the writable server, whichever place the URL gives it', async () => {
    const { primary, standby } = cluster;
    const reversed = `postgresql://postgres@127.0.0.1:${standby.port},127.0.0.1:${primary.port}/${DATABASE}?target_session_attrs=read-write`;
    const other = connect({ kind: 'postgres', url: reversed }, { poolSize: 2 });
    try {
      expect(await serverPort(other)).toBe(primary.port);
      expect(await serverPort(db)).toBe(primary.port);
    } finally {
      await other.close();
    }
    // The standby alone takes no writes: no server qualifies, and the error says the database is unavailable.
    const onlyStandby = connect(
      { kind: 'postgres', url: `postgresql://postgres@127.0.0.1:${standby.port}/${DATABASE}?target_session_attrs=read-write` },
      { poolSize: 1 },
    );
    try {
      const refused = await serverPort(onlyStandby).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(NoWritableServer);
      expect(isConnectionLost(refused)).toBe(true);
      expect(String(refused)).toContain(`127.0.0.1:${standby.port}: read-only`);
    } finally {
      await onlyStandby.close();
    }
  });

  it('answers 503 with Retry-After and the request id when the connection of a charge dies, charging nothing', async () => {
    const { accountId, key } = await account(100);
    // Hold the account's row, so that the charge waits on its lock, then end the charge's connection.
    const holder = new pg.Client({ connectionString: cluster.primary.url(DATABASE) });
    await holder.connect();
    const admin = new pg.Client({ connectionString: cluster.primary.url(DATABASE) });
    await admin.connect();
    try {
      await holder.query('begin');
      await holder.query('update accounts set balance = balance where account_id = $1', [accountId]);
      const answer = revenues(key);
      let ended = 0;
      for (let i = 0; i < 500 && ended === 0; i += 1) {
        const { rows } = await admin.query<{ pid: number }>(
          "select pid from pg_stat_activity where query like '%charge_batch(%' and wait_event_type = 'Lock' and pid <> pg_backend_pid()",
        );
        for (const { pid } of rows) await admin.query('select pg_terminate_backend($1)', [pid]);
        ended = rows.length;
        if (ended === 0) await sleep(10);
      }
      expect(ended).toBe(1);
      const res = await answer;
      await holder.query('commit');
      const id = res.headers.get('x-request-id') ?? '';
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('2');
      expect(id).not.toBe('');
      expect(await res.text()).toContain(`request ${id}`);
      const lines = await db.kysely.selectFrom('ledger').select('entry_id').where('request_id', '=', id).execute();
      expect(lines).toEqual([]);
      expect(await balanceOf(accountId)).toBe(100);
      // The retry is charged as the first access it is.
      const retry = await revenues(key);
      expect(retry.status).toBe(200);
      expect(retry.headers.get('x-credit-cost')).toBe('25');
      expect(await balanceOf(accountId)).toBe(75);
    } finally {
      await holder.end().catch(() => undefined);
      await admin.end();
    }
  });

  it('finds the promoted standby without a restart, answering 503 (never 500) meanwhile, and takes the old primary back as standby', async () => {
    const { accountId, key } = await account(100);
    const first = await revenues(key);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-credit-cost')).toBe('25');
    cluster.primary.kill();
    const during: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const res = await revenues(key);
      during.push(res.status);
      if (res.status === 503) expect(res.headers.get('retry-after')).toBe('2');
      await sleep(100);
    }
    // A backend may answer a moment after its postmaster's SIGKILL, before it notices the death (a
    // repeat, charged 1, its commit acknowledged by the live standby); then every call is a 503.
    const servedDuring = during.filter((s) => s === 200).length;
    expect(during.every((s) => s === 503 || s === 200)).toBe(true);
    expect(during.at(-1)).toBe(503);
    cluster.standby.promote();
    cluster.psql(cluster.standby, "alter system set synchronous_standby_names = ''; select pg_reload_conf()");
    const promoted = Date.now();
    let status = 0;
    let cost: string | null = null;
    while (Date.now() - promoted < 30_000) {
      const res = await revenues(key);
      status = res.status;
      cost = res.headers.get('x-credit-cost');
      expect(status).not.toBe(500);
      if (status === 200) break;
      await sleep(200);
    }
    expect(status).toBe(200);
    // The purchase made before the kill was replicated synchronously: this is a repeat.
    expect(cost).toBe('1');
    expect(await serverPort(db)).toBe(cluster.standby.port);
    expect(await balanceOf(accountId)).toBe(74 - servedDuring);
    // The old primary, rewound, follows the new one and is read-only.
    expect(cluster.rejoin(cluster.primary, cluster.standby)).toBe('pg_rewind');
    expect(cluster.psql(cluster.primary, 'select pg_is_in_recovery()')).toBe('t');
    cluster.psql(cluster.standby, "alter system set synchronous_standby_names = '*'; select pg_reload_conf()");
    const again = await revenues(key, 2022);
    expect(again.status).toBe(200);
    expect(again.headers.get('x-credit-cost')).toBe('25');
  }, 120_000);
});

/** The short version of `npm run failover` (docs/deployment.md has a full-size run). */
describe.each(['primary', 'standby'] as const)('npm run failover, short: the %s killed under billed load', (victim) => {
  it('loses no charge, doubles none, answers no 500 and serves 200 again within 30 s', async () => {
    const report = await runFailover({
      victim,
      ha: 'manual',
      beforeMs: 2500,
      afterMs: 2500,
      detectMs: 1000,
      connections: 8,
      seed: 11,
    });
    expectFailoverKept(report);
    if (victim === 'primary') {
      expect(report.rejoinedWith).toBe('pg_rewind');
      // Between the kill and the promotion no server takes writes: the calls of that time are 503s.
      expect(report.byStatus['503'] ?? 0).toBeGreaterThan(0);
    } else {
      // Writes wait for the synchronous standby's return instead: nothing is refused.
      expect(report.rejoinedWith).toBeNull();
      expect(report.byStatus['503'] ?? 0).toBe(0);
    }
  }, 120_000);
});
