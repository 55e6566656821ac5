import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../src/accounts/accounts.js';
import { createKey } from '../src/auth/api-keys.js';
import { openDatabase } from '../src/cli/open-database.js';
import { ledgerSum } from '../src/credits/ledger.js';
import type { Db } from '../src/db/connect.js';
import { signingSecret } from '../src/db/migrate.js';
import { importBundle } from '../src/ingest/sources/bundle/import-bundle.js';
import { apiGet } from './support/api-client.js';
import { corpdata, freePort, startServer } from './support/cli.js';
import { ConsoleClient, newKey } from './support/console-client.js';
import { BUNDLES, SUBSCRIPTIONS } from './support/datasets.js';
import { dialects } from './support/dialects.js';
import { FIXTURE_BUNDLE, testConfig } from './support/test-app.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

const INSTANCES = 3;
const uuid = (prefix: string, n: number) => `${prefix}-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** A bundle of `count` companies, each with one processed document and one USD figure for 2023. */
function manyCompaniesBundle(count: number, offset: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'corpdata-many-'));
  const ids = Array.from({ length: count }, (_, i) => offset + i);
  writeFileSync(
    join(dir, 'companies.csv'),
    `company_id,name,country,lei,ticker,mic_code,isin\n${ids.map((n) => `${uuid('20000000', n)},Many ${n} Holdings,France,,MANY${n},XPAR,`).join('\n')}\n`,
  );
  writeFileSync(
    join(dir, 'documents.csv'),
    `document_id,company_id,title,source_url,published_on,reporting_period,status\n${ids.map((n) => `${uuid('30000000', n)},${uuid('20000000', n)},Report ${n},https://example.com/${n},2024-03-01,2023,processed`).join('\n')}\n`,
  );
  writeFileSync(
    join(dir, 'revenues.csv'),
    `company_id,document_id,reporting_period,value,currency\n${ids.map((n) => `${uuid('20000000', n)},${uuid('30000000', n)},2023,${1_000_000 + n},USD`).join('\n')}\n`,
  );
  return dir;
}

describe.each(dialects())('several server processes on one database (%s)', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let secret: string;
  let servers: Array<Awaited<ReturnType<typeof startServer>>> = [];
  const bundles: string[] = [];
  let env: Record<string, string>;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    const config = testConfig(database);
    db = (await openDatabase({ ...config, secret: undefined }, BUNDLES)).db;
    await importBundle(db.kysely, FIXTURE_BUNDLE, BUNDLES);
    bundles.push(manyCompaniesBundle(100, 0));
    await importBundle(db.kysely, bundles[0] as string, BUNDLES);
    secret = await signingSecret(db.kysely, undefined);
    env = { CORPDATA_DATABASE: database.url, CORPDATA_DEMO: 'off' };
    servers = await Promise.all(Array.from({ length: INSTANCES }, async () => startServer(env, await freePort())));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await db?.close();
    await database?.drop();
    for (const b of bundles) rmSync(b, { recursive: true, force: true });
  });

  async function account(credits: number) {
    const a = await createAccount(db.kysely, { email: `m${Math.random()}@example.com`, credits, now: new Date() }, SUBSCRIPTIONS);
    const k = await createKey(db.kysely, { accountId: a.account_id, name: 'multi', secret, now: new Date() });
    return { id: a.account_id, key: k.api_key, keyId: k.key_id };
  }

  const call = async (i: number, path: string, key: string) => {
    const server = servers[i % servers.length];
    if (server === undefined) throw new Error('no server');
    const res = await apiGet(server.url, path, key);
    return { status: res.status, cost: Number(res.cost), balance: Number(res.balance) };
  };

  async function expectLedgersBalance() {
    for (const a of await db.kysely.selectFrom('accounts').select(['account_id', 'balance']).execute()) {
      expect(await ledgerSum(db.kysely, a.account_id)).toBe(Number(a.balance));
      expect(Number(a.balance)).toBeGreaterThanOrEqual(0);
    }
  }

  it('charges 25 exactly once for 300 concurrent first accesses spread over the instances', async () => {
    const a = await account(100_000);
    const results = await Promise.all(
      Array.from({ length: 300 }, (_, i) => call(i, '/api/v1/revenues?ticker=BETA&reporting_period=2023', a.key)),
    );
    expect(results.filter((r) => r.status !== 200)).toEqual([]);
    expect(results.filter((r) => r.cost === 25)).toHaveLength(1);
    expect(results.filter((r) => r.cost === 1)).toHaveLength(299);
    const row = await db.kysely.selectFrom('accounts').select('balance').where('account_id', '=', a.id).executeTakeFirstOrThrow();
    expect(Number(row.balance)).toBe(100_000 - 25 - 299);
    await expectLedgersBalance();
  }, 60_000);

  it('lets 30 credits buy exactly one of 100 concurrent first accesses to different company-periods', async () => {
    const a = await account(30);
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => call(i, `/api/v1/revenues?ticker=MANY${i}&reporting_period=2023`, a.key)),
    );
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    expect(ok[0]?.cost).toBe(25);
    expect(results.filter((r) => r.status === 402)).toHaveLength(99);
    const row = await db.kysely.selectFrom('accounts').select('balance').where('account_id', '=', a.id).executeTakeFirstOrThrow();
    expect(Number(row.balance)).toBe(5);
    await expectLedgersBalance();
  }, 60_000);

  /** How long after `started` each instance first refused `key`. */
  async function refusalDelays(key: string, started: number): Promise<number[]> {
    return Promise.all(
      Array.from({ length: INSTANCES }, async (_, i) => {
        while (Date.now() - started < 5_000) {
          if ((await call(i, '/api/v1/companies/search?query=beta', key)).status === 401) return Date.now() - started;
          await new Promise((r) => setTimeout(r, 10));
        }
        return Number.POSITIVE_INFINITY;
      }),
    );
  }

  it('refuses a key revoked in one instance’s console on every instance within a second', async () => {
    const password = 'multi-instance-password';
    const email = `console${Math.random()}@example.com`;
    await createAccount(db.kysely, { email, password, credits: 1_000, now: new Date() }, SUBSCRIPTIONS);
    const [first, second] = servers;
    if (first === undefined || second === undefined) throw new Error('no servers');
    // Created through one instance, revoked through another: nothing is held by the instance.
    const creator = new ConsoleClient(second.url);
    expect((await creator.signIn(email, password)).status).toBe(303);
    const key = newKey((await creator.submit('/account/keys', '/account/keys', { name: 'multi', lifetime: '' })).text);
    for (let i = 0; i < INSTANCES; i++) expect((await call(i, '/api/v1/companies/search?query=beta', key)).status).toBe(200);
    const keyId = (
      await db.kysely
        .selectFrom('api_keys')
        .select('key_id')
        .where('name', '=', 'multi')
        .orderBy('created_at', 'desc')
        .executeTakeFirstOrThrow()
    ).key_id;
    const revoker = new ConsoleClient(first.url);
    expect((await revoker.signIn(email, password)).status).toBe(303);
    const started = Date.now();
    const revoked = await revoker.submit(`/account/keys/${keyId}/revoke`, `/account/keys/${keyId}/revoke`, {});
    expect(revoked.status).toBe(303);
    expect(Math.max(...(await refusalDelays(key, started)))).toBeLessThan(1_000);
    await expectLedgersBalance();
  }, 30_000);

  it('refuses a key revoked with the CLI on every instance within a second', async () => {
    const a = await account(1_000);
    for (let i = 0; i < INSTANCES; i++) expect((await call(i, '/api/v1/companies/search?query=beta', a.key)).status).toBe(200);
    const revoked = await corpdata(['keys', 'revoke', a.keyId], env);
    expect(revoked.code, revoked.stderr).toBe(0);
    const started = Date.now();
    expect(Math.max(...(await refusalDelays(a.key, started)))).toBeLessThan(1_000);
    await expectLedgersBalance();
  }, 30_000);

  it('shows companies imported through any process in every instance’s search and list within a second', async () => {
    const a = await account(10_000);
    const bundle = manyCompaniesBundle(1, 500);
    bundles.push(bundle);
    const imported = await corpdata(['import', bundle], env);
    expect(imported.code, imported.stderr).toBe(0);
    const started = Date.now();
    const seenAt = await Promise.all(
      servers.map(async (server) => {
        while (Date.now() - started < 5_000) {
          const res = await apiGet(server.url, '/api/v1/companies/search?query=MANY500', a.key);
          const found = res.json<Array<{ ticker: string }>>().some((c) => c.ticker === 'MANY500');
          if (found) return Date.now() - started;
          await new Promise((r) => setTimeout(r, 10));
        }
        return Number.POSITIVE_INFINITY;
      }),
    );
    expect(Math.max(...seenAt)).toBeLessThan(1_000);
    for (const server of servers) {
      const res = await apiGet(server.url, '/api/v1/companies/list', a.key);
      expect(res.json<Array<{ ticker: string }>>().some((c) => c.ticker === 'MANY500')).toBe(true);
    }
  }, 30_000);
});
