import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiGet } from './support/api-client.js';
import { corpdata, freePort, startServer } from './support/cli.js';
import { SUBSCRIPTIONS } from './support/datasets.js';
import { dialects } from './support/dialects.js';
import { FIXTURE_BUNDLE } from './support/test-app.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

interface Shown {
  account_id: string;
  email: string;
  balance: number;
  subscription: string;
  subscriptions: string[];
}
interface Listed extends Shown {
  created_at: string;
}
interface KeyListing {
  key_id: string;
  name: string;
  signature_prefix: string;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
  revoked_at: string | null;
  status: 'active' | 'revoked' | 'expired';
}

/** The operator's look-ups and corrections (design §6): `accounts list`, `keys list`, `credits adjust`. */
describe.each(dialects())('bin/corpdata accounts list, keys list, credits adjust (%s)', (dialect) => {
  let database: TestDatabase;
  let env: Record<string, string>;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    env = { CORPDATA_DATABASE: database.url, CORPDATA_DEMO: 'off', CORPDATA_SYNC_INTERVAL_MS: '100' };
    const migrated = await corpdata(['migrate'], env);
    expect(migrated.code, migrated.stderr).toBe(0);
  }, 120_000);
  afterAll(async () => {
    await database?.drop();
  });

  const ok = async (args: string[]) => {
    const r = await corpdata(args, env);
    expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return r;
  };
  /** A refusal: one line on stderr naming what is wrong, a non-zero exit, nothing on stdout. */
  const refused = async (args: string[], said: RegExp) => {
    const r = await corpdata(args, env);
    expect([r.code === 0, r.stdout], args.join(' ')).toEqual([false, '']);
    expect(r.stderr, args.join(' ')).toMatch(/^[^\n]+\n$/);
    expect(r.stderr, args.join(' ')).toMatch(said);
  };
  const balanceOf = async (email: string) => (await ok(['accounts', 'show', email])).json<Shown>().balance;

  it('lists every account as accounts show prints it, with its creation time, oldest first', async () => {
    expect((await ok(['accounts', 'list'])).json()).toEqual({ accounts: [] });
    const emails = [`first-${dialect}@example.com`, `Second-${dialect}@Example.com`, `third-${dialect}@example.com`];
    await ok(['accounts', 'create', '--email', emails[0] ?? '', '--credits', '12']);
    await ok(['accounts', 'create', '--email', emails[1] ?? '', '--no-subscription']);
    await ok(['accounts', 'create', '--email', emails[2] ?? '', '--subscriptions', SUBSCRIPTIONS.at(-1) ?? '']);
    const listed = (await ok(['accounts', 'list'])).json<{ accounts: Listed[] }>().accounts;
    expect(listed.map((a) => a.email)).toEqual(emails);
    for (const a of listed) {
      const { created_at, ...shown } = a;
      expect(shown).toEqual((await ok(['accounts', 'show', a.email])).json());
      expect(new Date(created_at).toISOString()).toBe(created_at);
    }
    expect(listed.map((a) => a.created_at)).toEqual([...listed.map((a) => a.created_at)].sort());
    // Stable: the same listing twice.
    expect((await ok(['accounts', 'list'])).json()).toEqual({ accounts: listed });
  }, 120_000);

  it("lists an account's keys, newest first, by email or id, never the key itself", async () => {
    const email = `keys-${dialect}@example.com`;
    const other = `other-keys-${dialect}@example.com`;
    const { account_id } = (await ok(['accounts', 'create', '--email', email, '--credits', '100'])).json<Shown>();
    await ok(['accounts', 'create', '--email', other]);
    const made = [];
    for (const args of [['--name', 'ci'], ['--name', 'laptop', '--expires-in', '3600'], []]) {
      made.push((await ok(['keys', 'create', email, ...args])).json<{ key_id: string; api_key: string }>());
    }
    const [ci, laptop, plain] = made;
    if (ci === undefined || laptop === undefined || plain === undefined) throw new Error('three keys were made');
    const othersKey = (await ok(['keys', 'create', other])).json<{ key_id: string }>();
    await ok(['keys', 'revoke', ci.key_id]);
    // A key used on a server has its last use recorded.
    const server = await startServer(env, await freePort());
    try {
      expect((await apiGet(server.url, '/api/v1/companies/search?query=beta', laptop.api_key)).status).toBe(200);
    } finally {
      await server.stop();
    }

    const byEmail = await ok(['keys', 'list', email]);
    const listed = byEmail.json<{ account_id: string; email: string; keys: KeyListing[] }>();
    expect(listed.account_id).toBe(account_id);
    expect(listed.email).toBe(email);
    expect(listed.keys.map((k) => [k.key_id, k.name, k.status])).toEqual([
      [plain.key_id, 'default', 'active'],
      [laptop.key_id, 'laptop', 'active'],
      [ci.key_id, 'ci', 'revoked'],
    ]);
    for (const k of listed.keys) {
      expect(Object.keys(k).sort()).toEqual([
        'created_at',
        'expires_at',
        'key_id',
        'last_used_at',
        'name',
        'revoked_at',
        'signature_prefix',
        'status',
      ]);
    }
    const [plainListed, laptopListed, ciListed] = listed.keys;
    expect(ciListed?.revoked_at).not.toBeNull();
    expect(plainListed?.revoked_at).toBeNull();
    expect(laptopListed?.expires_at).not.toBeNull();
    expect(plainListed?.expires_at).toBeNull();
    expect(laptopListed?.last_used_at).not.toBeNull();
    expect(plainListed?.last_used_at).toBeNull();
    // Neither a key, nor its signature, nor its signed part is printed; only what the console shows.
    for (const { api_key } of made) {
      const [header = '', payload = '', signature = ''] = api_key.split('.');
      expect(byEmail.stdout).not.toContain(api_key);
      expect(byEmail.stdout).not.toContain(signature);
      expect(byEmail.stdout).not.toContain(`${header}.${payload}`);
      expect(byEmail.stdout).toContain(`"signature_prefix":"${signature.slice(0, 8)}"`);
    }
    expect(byEmail.stdout).not.toContain(othersKey.key_id);
    expect((await ok(['keys', 'list', account_id])).json()).toEqual(listed);
    expect((await ok(['keys', 'list', other])).json<{ keys: KeyListing[] }>().keys.map((k) => k.key_id)).toEqual([
      othersKey.key_id,
    ]);
    await refused(
      ['keys', 'list', `nobody-${dialect}@example.com`],
      new RegExp(`^corpdata: no account nobody-${dialect}@example.com\n$`),
    );
    await refused(['keys', 'list'], /account/);
  }, 180_000);

  it('adjusts a balance by a whole number either way with a reason, one ledger line, never below zero', async () => {
    const email = `adjust-${dialect}@example.com`;
    await ok(['accounts', 'create', '--email', email, '--credits', '1000']);
    const taken = await ok(['credits', 'adjust', email, '-500', '--reason', 'grant of 500 typed as 1000']);
    const { account_id } = (await ok(['accounts', 'show', email])).json<Shown>();
    expect(taken.json()).toEqual({ account_id, adjusted: -500, balance: 500 });
    expect((await ok(['credits', 'adjust', account_id, '25', '--reason', 'goodwill'])).json()).toEqual({
      account_id,
      adjusted: 25,
      balance: 525,
    });
    expect((await ok(['credits', 'adjust', email, '-525', '--reason', 'account closed'])).json()).toMatchObject({ balance: 0 });
    expect(await balanceOf(email)).toBe(0);
    await ok(['credits', 'grant', email, '10']);

    // Every refusal changes nothing: the balance stays 10.
    await refused(
      ['credits', 'adjust', email, '-11', '--reason', 'too much'],
      /^corpdata: adjusting by -11 would take the balance of 10 below zero; nothing changed\n$/,
    );
    await refused(['credits', 'adjust', email, '0', '--reason', 'nothing'], /N must not be 0/);
    await refused(['credits', 'adjust', email, '1.5', '--reason', 'half'], /N must be a whole number of credits.*"1\.5"/);
    await refused(['credits', 'adjust', email, 'abc', '--reason', 'word'], /N must be a whole number of credits.*"abc"/);
    await refused(['credits', 'adjust', email, '-5'], /--reason/);
    await refused(['credits', 'adjust', email, '-5', '--reason', '   '], /--reason must say why/);
    await refused(['credits', 'adjust', email, '-5', '--reason', 'x'.repeat(501)], /--reason must be at most 500 characters/);
    await refused(
      ['credits', 'adjust', `nobody-${dialect}@example.com`, '5', '--reason', 'x'],
      new RegExp(`^corpdata: no account nobody-${dialect}@example.com\n$`),
    );
    expect(await balanceOf(email)).toBe(10);
  }, 180_000);

  it('keeps an adjusted account usable: a server charges it from the adjusted balance', async () => {
    const email = `adjusted-use-${dialect}@example.com`;
    await ok(['accounts', 'create', '--email', email, '--credits', '30']);
    await ok(['import', FIXTURE_BUNDLE]);
    await ok(['credits', 'adjust', email, '-4', '--reason', 'test']);
    const { api_key } = (await ok(['keys', 'create', email])).json<{ api_key: string }>();
    const server = await startServer(env, await freePort());
    try {
      const res = await apiGet(server.url, '/api/v1/revenues?ticker=BETA&reporting_period=-1', api_key);
      expect([res.status, res.headers.get('x-credit-balance')]).toEqual([200, '1']);
      const broke = await apiGet(server.url, '/api/v1/revenues?ticker=BETA&reporting_period=2023', api_key);
      expect(broke.status).toBe(402);
    } finally {
      await server.stop();
    }
  }, 180_000);
});
