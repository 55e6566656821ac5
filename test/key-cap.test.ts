import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, KeyError } from '../src/auth/api-keys.js';
import { corpdata } from './support/cli.js';
import { ConsoleClient, csrfOf, newKey } from './support/console-client.js';
import { dialects } from './support/dialects.js';
import { startApp, TEST_SECRET, type TestApp } from './support/test-app.js';

const PASSWORD = 'correct horse battery';
const REFUSAL = /already has 20 live keys, the most it may hold; revoke one to make another/;

describe.each(dialects())('at most 20 live keys per account (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(dialect);
  });
  afterAll(() => t.close());

  const keysOf = async (accountId: string) =>
    t.db.kysely.selectFrom('api_keys').select(['key_id', 'revoked_at']).where('account_id', '=', accountId).execute();
  /** Keys made straight in the database, as the console and the CLI make them. */
  const make = (accountId: string, n: number, extra: { expiresInSeconds?: number; now?: Date } = {}) =>
    Promise.all(
      Array.from({ length: n }, (_, i) =>
        createKey(t.db.kysely, { accountId, name: `k${i}`, secret: TEST_SECRET, now: new Date(), ...extra }),
      ),
    );

  it('the console refuses the 21st key with a message and makes nothing; a revoked key frees a place', async () => {
    const account = await t.account({ password: PASSWORD }); // its first key
    const client = new ConsoleClient(t.url);
    expect((await client.signIn(account.email, PASSWORD)).status).toBe(303);
    for (let i = 2; i <= 20; i++) {
      const made = await client.submit('/account/keys', '/account/keys', { name: `key ${i}`, lifetime: '' });
      expect(made.status, `key ${i}`).toBe(200);
      expect(newKey(made.text)).toMatch(/^ey/);
    }
    const refused = await client.submit('/account/keys', '/account/keys', { name: 'key 21', lifetime: '90' });
    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(/This account already has 20 live keys, the most it may hold; revoke one to make another\./);
    expect(refused.text).not.toContain('id="new-key"');
    expect(await keysOf(account.accountId)).toHaveLength(20);

    // Revoked keys do not count: revoke one, and the next is made.
    const page = await client.get('/account/keys');
    const revoked = await client.post(`/account/keys/${account.keyId}/revoke`, { csrf: csrfOf(page.text) });
    expect(revoked.status).toBe(303);
    const again = await client.submit('/account/keys', '/account/keys', { name: 'key 21', lifetime: '' });
    expect(again.status).toBe(200);
    const keys = await keysOf(account.accountId);
    expect(keys).toHaveLength(21);
    expect(keys.filter((k) => k.revoked_at === null)).toHaveLength(20);
    // The revoked key stays revoked, and the 21st live one is still refused.
    expect((await client.submit('/account/keys', '/account/keys', { name: 'key 22', lifetime: '' })).status).toBe(400);
    expect(await keysOf(account.accountId)).toHaveLength(21);
  });

  it('does not count expired keys', async () => {
    const account = await t.account();
    const past = new Date(Date.now() - 3_600_000);
    await make(account.accountId, 5, { expiresInSeconds: 60, now: past });
    await make(account.accountId, 19);
    await expect(make(account.accountId, 1)).rejects.toThrow(REFUSAL);
    expect(await keysOf(account.accountId)).toHaveLength(25);
  });

  it('keys made at the same moment cannot pass the cap together', async () => {
    const account = await t.account();
    const tries = await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) =>
        createKey(t.db.kysely, { accountId: account.accountId, name: `race ${i}`, secret: TEST_SECRET, now: new Date() }),
      ),
    );
    expect(tries.filter((r) => r.status === 'fulfilled')).toHaveLength(19);
    for (const r of tries) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(KeyError);
    expect(await keysOf(account.accountId)).toHaveLength(20);
  });

  it('bin/corpdata keys create refuses the 21st key on stderr with a non-zero exit, and honours CORPDATA_KEYS_PER_ACCOUNT', async () => {
    const account = await t.account();
    await make(account.accountId, 18);
    const env = { CORPDATA_DATABASE: t.database.url, CORPDATA_SECRET: TEST_SECRET, CORPDATA_DEMO: 'off' };
    const twentieth = await corpdata(['keys', 'create', account.email], env);
    expect(twentieth.code, twentieth.stderr).toBe(0);
    const refused = await corpdata(['keys', 'create', account.email, '--name', 'one too many'], env);
    expect(refused.code).not.toBe(0);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(
      /^corpdata: this account already has 20 live keys, the most it may hold; revoke one to make another\n$/,
    );
    expect(await keysOf(account.accountId)).toHaveLength(20);
    const raised = await corpdata(['keys', 'create', account.email], { ...env, CORPDATA_KEYS_PER_ACCOUNT: '21' });
    expect(raised.code, raised.stderr).toBe(0);
    expect(await keysOf(account.accountId)).toHaveLength(21);
  });
});
