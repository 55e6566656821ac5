import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiGet } from './support/api-client.js';
import { corpdata, freePort, startServer } from './support/cli.js';
import { DATASETS, SUBSCRIPTIONS } from './support/datasets.js';
import { dialects } from './support/dialects.js';
import { FIXTURE_BUNDLE, TEST_SECRET } from './support/test-app.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

/** Every migration of src/db/migrations, in order: a fresh database runs them all. */
const MIGRATIONS = readdirSync(fileURLToPath(new URL('../src/db/migrations/', import.meta.url)))
  .filter((f) => /^[0-9]{3}-[a-z0-9-]+\.ts$/.test(f) && !f.endsWith('.test.ts'))
  .map((f) => f.replace(/\.ts$/, ''))
  .sort();
/** A subscription that is not the first (the legacy `subscription` field reports only that one). */
const LATER = SUBSCRIPTIONS.at(-1) ?? '';

describe.each(dialects())('bin/corpdata (%s)', (dialect) => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let server: Awaited<ReturnType<typeof startServer>>;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    env = { CORPDATA_DATABASE: database.url, CORPDATA_DEMO: 'off', CORPDATA_SYNC_INTERVAL_MS: '100' };
    const migrated = await corpdata(['migrate'], env);
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(MIGRATIONS.length).toBeGreaterThan(7);
    expect(migrated.json()).toEqual({ migrated: MIGRATIONS, seeded: null });
    const imported = await corpdata(['import', FIXTURE_BUNDLE], env);
    expect(imported.code, imported.stderr).toBe(0);
    server = await startServer(env, await freePort());
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  it('migrate is idempotent and prints JSON', async () => {
    const again = await corpdata(['migrate'], env);
    expect(again.code).toBe(0);
    expect(again.json()).toEqual({ migrated: [], seeded: null });
  });

  it('creates, shows and credits accounts, printing one JSON object each', async () => {
    const created = await corpdata(['accounts', 'create', '--email', `Ops-${dialect}@Example.com`, '--credits', '50'], env);
    expect(created.code, created.stderr).toBe(0);
    const account = created.json<{ account_id: string; email: string; balance: number }>();
    expect(Object.keys(account).sort()).toEqual(['account_id', 'balance', 'email']);
    expect(account).toMatchObject({ email: `Ops-${dialect}@Example.com`, balance: 50 });
    const byEmail = await corpdata(['accounts', 'show', account.email.toLowerCase()], env);
    expect(byEmail.json()).toEqual({ ...account, subscription: 'revenues', subscriptions: SUBSCRIPTIONS });
    const byId = await corpdata(['accounts', 'show', account.account_id], env);
    expect(byId.json()).toEqual(byEmail.json());
    const granted = await corpdata(['credits', 'grant', account.email, '25'], env);
    expect(granted.json()).toEqual({ balance: 75 });
    const noSub = await corpdata(['accounts', 'create', '--email', `nosub-${dialect}@example.com`, '--no-subscription'], env);
    expect(noSub.json()).toMatchObject({ balance: 0 });
    expect((await corpdata(['accounts', 'show', `nosub-${dialect}@example.com`], env)).json()).toMatchObject({
      subscription: 'none',
      subscriptions: [],
    });
    const laterOnly = await corpdata(
      ['accounts', 'create', '--email', `later-${dialect}@example.com`, '--subscriptions', LATER],
      env,
    );
    expect(laterOnly.code, laterOnly.stderr).toBe(0);
    expect((await corpdata(['accounts', 'show', `later-${dialect}@example.com`], env)).json()).toMatchObject({
      subscription: 'none',
      subscriptions: [LATER],
    });
    // Given in any order, held in the one order every answer uses.
    const all = await corpdata(
      ['accounts', 'create', '--email', `all-${dialect}@example.com`, '--subscriptions', [...SUBSCRIPTIONS].reverse().join(',')],
      env,
    );
    expect(all.code, all.stderr).toBe(0);
    expect((await corpdata(['accounts', 'show', `all-${dialect}@example.com`], env)).json()).toMatchObject({
      subscription: 'revenues',
      subscriptions: SUBSCRIPTIONS,
    });
  });

  it('refuses an unknown subscription, and --no-subscription beside --subscriptions, in one line on stderr', async () => {
    for (const args of [
      ['accounts', 'create', '--email', `s-${dialect}@example.com`, '--subscriptions', `${SUBSCRIPTIONS[0]},carbon`],
      ['accounts', 'create', '--email', `t-${dialect}@example.com`, '--no-subscription', '--subscriptions', LATER],
    ]) {
      const r = await corpdata(args, env);
      expect(r.code, args.join(' ')).not.toBe(0);
      expect(r.stdout, args.join(' ')).toBe('');
      expect(r.stderr, args.join(' ')).toMatch(/^corpdata: [^\n]*subscription[^\n]*\n$/);
    }
    expect((await corpdata(['accounts', 'show', `s-${dialect}@example.com`], env)).code).not.toBe(0);
  });

  it('fails clearly on stderr with a non-zero exit and nothing on stdout', async () => {
    await corpdata(['accounts', 'create', '--email', `dup-${dialect}@example.com`], env);
    const cases = [
      ['accounts', 'create', '--email', `dup-${dialect}@example.com`],
      ['accounts', 'create', '--email', `DUP-${dialect}@Example.com`],
      ['accounts', 'create', '--email', 'not-an-email'],
      ['accounts', 'create', '--email', `Ärger-${dialect}@example.com`],
      ['accounts', 'create', '--email', `x-${dialect}@example.com`, '--credits', '-5'],
      ['accounts', 'show', 'nobody@example.com'],
      ['credits', 'grant', `dup-${dialect}@example.com`, '0'],
      ['credits', 'grant', `dup-${dialect}@example.com`, 'ten'],
      ['credits', 'grant', 'nobody@example.com', '10'],
      ['keys', 'create', 'nobody@example.com'],
      ['keys', 'revoke', '00000000-0000-4000-8000-000000000000'],
      ['import', '/nonexistent/bundle'],
      ['accounts', 'create'],
      ['accounts', 'create', '--email', `y-${dialect}@example.com`, '--colour', 'red'],
      ['keys', 'revoke'],
      ['no-such-command'],
    ];
    for (const args of cases) {
      const r = await corpdata(args, env);
      expect(r.code, args.join(' ')).not.toBe(0);
      expect(r.stdout, args.join(' ')).toBe('');
      // One clear line, as design §6 says: no usage text after it.
      expect(r.stderr, args.join(' ')).toMatch(/^[^\n]+\n$/);
    }
    const bad = await corpdata(['accounts', 'create', '--email', 'x@example.com'], { ...env, CORPDATA_DATABASE: 'mysql://nope' });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/CORPDATA_DATABASE/);
    for (const [name, value] of [
      ['CORPDATA_TRUST_PROXY', 'true'],
      ['CORPDATA_TRUST_PROXY', '0.0.0.0/0'],
      ['CORPDATA_TRUST_PROXY', '::/0'],
      ['CORPDATA_POOL_SIZE', '0'],
      ['PORT', 'eighty'],
    ] as const) {
      const refused = await corpdata(['serve'], { ...env, [name]: value });
      expect(refused.code, `${name}=${value}`).not.toBe(0);
      expect(refused.stderr, `${name}=${value}`).toContain(name);
    }
  }, 120_000); // a CLI run per case, each a Node start: slow on a loaded machine

  it('makes keys that work at once on a running server, and revocations that stop them within a second', async () => {
    const email = `keys-${dialect}@example.com`;
    await corpdata(['accounts', 'create', '--email', email, '--credits', '100'], env);
    const made = await corpdata(['keys', 'create', email, '--name', 'ci'], env);
    expect(made.code, made.stderr).toBe(0);
    const { key_id, api_key } = made.json<{ key_id: string; api_key: string }>();
    expect(Object.keys(made.json()).sort()).toEqual(['api_key', 'key_id']);
    const call = () => apiGet(server.url, '/api/v1/revenues?ticker=BETA&reporting_period=-1', api_key);
    const ok = await call();
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-credit-cost')).toBe('25');
    const revoked = await corpdata(['keys', 'revoke', key_id], env);
    expect(revoked.code, revoked.stderr).toBe(0);
    const deadline = Date.now() + 1000;
    let status = 200;
    while (status !== 401 && Date.now() < deadline) status = (await call()).status;
    expect(status).toBe(401);
  });

  // One dataset of each subscription but the first (which the other tests use): each CLI run starts Node.
  it.each(SUBSCRIPTIONS.slice(1).flatMap((s) => DATASETS.find((d) => d.subscription === s) ?? []))(
    'subscribes and unsubscribes an existing account to $subscription ($name), honoured by a running server within a second',
    async (d) => {
      const email = `subs-${d.name}-${dialect}@example.com`;
      const others = SUBSCRIPTIONS.filter((s) => s !== d.subscription);
      await corpdata(['accounts', 'create', '--email', email, '--credits', '100', '--subscriptions', others.join(',')], env);
      const { api_key } = (await corpdata(['keys', 'create', email], env)).json<{ api_key: string }>();
      const call = () => apiGet(server.url, `${d.route.path}/periods?ticker=BETA`, api_key);
      expect((await call()).status).toBe(403);
      const subscribed = await corpdata(['accounts', 'subscribe', email, d.subscription], env);
      expect(subscribed.code, subscribed.stderr).toBe(0);
      const shown = (await corpdata(['accounts', 'show', email], env)).json();
      // Prints the account as `accounts show` does.
      expect(subscribed.json()).toEqual(shown);
      expect(shown).toMatchObject({ email, subscriptions: SUBSCRIPTIONS });
      const until = async (status: number) => {
        const deadline = Date.now() + 1000;
        let got = (await call()).status;
        while (got !== status && Date.now() < deadline) got = (await call()).status;
        return got;
      };
      expect(await until(200)).toBe(200);
      // Idempotent: subscribing again, or unsubscribing from what is not held, changes nothing.
      const again = await corpdata(['accounts', 'subscribe', email, d.subscription], env);
      expect([again.code, again.json()]).toEqual([0, shown]);
      const unsubscribed = await corpdata(['accounts', 'unsubscribe', email, SUBSCRIPTIONS.join(',')], env);
      expect(unsubscribed.code, unsubscribed.stderr).toBe(0);
      expect(unsubscribed.json()).toMatchObject({ subscriptions: [], subscription: 'none' });
      const twice = await corpdata(['accounts', 'unsubscribe', email, d.subscription], env);
      expect([twice.code, twice.json()]).toEqual([0, unsubscribed.json()]);
      expect(await until(403)).toBe(403);
      // An unknown subscription, even beside known ones, changes nothing and says so in one line.
      for (const [command, list, said] of [
        ['subscribe', `${d.subscription},carbon`, /^corpdata: unknown subscription carbon[^\n]*\n$/],
        ['unsubscribe', `carbon,${d.subscription}`, /^corpdata: unknown subscription carbon[^\n]*\n$/],
        ['subscribe', ' , ', /^corpdata: LIST names no subscription[^\n]*\n$/],
      ] as const) {
        const bad = await corpdata(['accounts', command, email, list], env);
        expect([bad.code === 0, bad.stdout], `${command} ${list}`).toEqual([false, '']);
        expect(bad.stderr, `${command} ${list}`).toMatch(said);
      }
      expect((await corpdata(['accounts', 'show', email], env)).json()).toMatchObject({ subscriptions: [] });
    },
  );

  it('prints the fixed test token, which the server honours with mock data', async () => {
    const r = await corpdata(['test-token'], env);
    const { test_token } = r.json<{ test_token: string }>();
    const res = await apiGet(server.url, '/api/v1/revenues?ticker=AAPL&reporting_period=-1', test_token);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-credit-cost')).toBe('0');
  });

  it('keys signed with CORPDATA_SECRET verify on a server configured with it', async () => {
    const secretEnv = { ...env, CORPDATA_SECRET: TEST_SECRET };
    const email = `secret-${dialect}@example.com`;
    await corpdata(['accounts', 'create', '--email', email, '--credits', '30'], secretEnv);
    const { api_key } = (await corpdata(['keys', 'create', email], secretEnv)).json<{ api_key: string }>();
    const search = (url: string) => apiGet(url, '/api/v1/companies/search?query=beta', api_key);
    // The running server signs with the secret generated in the database: there the key is foreign.
    expect((await search(server.url)).status).toBe(401);
    const configured = await startServer(secretEnv, await freePort());
    try {
      const res = await search(configured.url);
      expect([res.status, res.headers.get('x-credit-balance')]).toEqual([200, '29']);
    } finally {
      await configured.stop();
    }
  });

  it('stops gracefully on SIGTERM', async () => {
    const other = await startServer(env, await freePort());
    expect(await other.stop()).toBe(0);
  });
});
