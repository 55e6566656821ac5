import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../src/accounts/accounts.js';
import { pointId } from '../src/ingest/sources/bundle/import-bundle.js';
import { apiGet } from './support/api-client.js';
import { ConsoleClient, csrfOf, type PageResponse } from './support/console-client.js';
import { SUBSCRIPTIONS } from './support/datasets.js';
import { dialects } from './support/dialects.js';
import { doc } from './support/fixture.js';
import { captureLog } from './support/log-capture.js';
import { startApp, type TestAccount, type TestApp } from './support/test-app.js';

const PASSWORD = 'correct horse battery';
const BETA_2023 = '/api/v1/revenues?ticker=BETA&reporting_period=2023';
const BETA_2023_TRACE = `/trace/${pointId(doc(3), 2023)}`;

/** The key shown on the creation page, and its id (the JWT's jti). */
function createdKey(page: PageResponse): { key: string; keyId: string } {
  const key = /<textarea[^>]*id="new-key"[^>]*>([^<]+)<\/textarea>/.exec(page.text)?.[1];
  if (key === undefined) throw new Error(`no key on the page: ${page.status} ${page.text.slice(-1500)}`);
  const payload = JSON.parse(Buffer.from(key.split('.')[1] ?? '', 'base64url').toString()) as { jti: string };
  return { key, keyId: payload.jti };
}

async function createKeyInConsole(c: ConsoleClient, name: string): Promise<{ key: string; keyId: string }> {
  const page = await c.submit('/account/keys', '/account/keys', { name, lifetime: '' });
  expect(page.status).toBe(200);
  return createdKey(page);
}

describe.each(dialects())('console security (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(dialect);
  });
  afterAll(() => t.close());

  async function signedIn(): Promise<{ account: TestAccount; client: ConsoleClient }> {
    const account = await t.account({ password: PASSWORD });
    const client = new ConsoleClient(t.url);
    const res = await client.signIn(account.email, PASSWORD);
    expect(res.status).toBe(303);
    expect(res.location).toBe('/account/keys');
    return { account, client };
  }

  it('keeps each account to its own keys: B’s key cannot be seen, filtered on or revoked from A’s session', async () => {
    const a = await signedIn();
    const b = await signedIn();
    const bKey = await createKeyInConsole(b.client, 'b-secret-integration');
    expect((await apiGet(t.url, BETA_2023, bKey.key)).status).toBe(200);

    const aKeys = await a.client.get('/account/keys');
    expect(aKeys.status).toBe(200);
    for (const secret of [bKey.keyId, 'b-secret-integration', b.account.keyId, b.account.email])
      expect(aKeys.text).not.toContain(secret);

    // B's key id in A's revoke confirmation page and in A's revoke form (with A's valid CSRF token).
    expect((await a.client.get(`/account/keys/${bKey.keyId}/revoke`)).status).toBe(404);
    const csrf = csrfOf(aKeys.text);
    const revoke = await a.client.post(`/account/keys/${bKey.keyId}/revoke`, { csrf });
    expect(revoke.status).toBe(404);
    expect(revoke.text).not.toContain('b-secret-integration');
    expect((await apiGet(t.url, BETA_2023, bKey.key)).status).toBe(200);
    const row = await t.db.kysely
      .selectFrom('api_keys')
      .select('revoked_at')
      .where('key_id', '=', bKey.keyId)
      .executeTakeFirstOrThrow();
    expect(row.revoked_at).toBeNull();

    // Filtering A's usage on B's key shows nothing of B.
    const usage = await a.client.get(`/account/usage?key=${bKey.keyId}`);
    expect(usage.status).toBe(200);
    for (const secret of [bKey.keyId, 'b-secret-integration', 'Beta Corporation']) expect(usage.text).not.toContain(secret);

    // Something that is no key id at all is just as unknown.
    expect((await a.client.get(`/account/keys/not-a-uuid/revoke`)).status).toBe(404);
  });

  it('shows B’s purchased values to B only, never to A or to a visitor', async () => {
    const a = await signedIn();
    const b = await signedIn();
    expect((await t.get(BETA_2023, b.account.key)).cost).toBe(25);
    const values = ['8,362,000,000', '8362000000', '8,400,000,000', '8400000000'];
    const bPage = await b.client.get(BETA_2023_TRACE);
    expect(bPage.text).toContain('8,362,000,000 USD');
    for (const page of [await a.client.get(BETA_2023_TRACE), await new ConsoleClient(t.url).get(BETA_2023_TRACE)]) {
      expect(page.status).toBe(200);
      expect(page.text).toContain('Beta Corporation');
      for (const v of values) expect(page.text).not.toContain(v);
    }
  });

  it('refuses every form without this session’s CSRF token (403) and changes nothing', async () => {
    const a = await signedIn();
    const b = await signedIn();
    const bCsrf = csrfOf((await b.client.get('/account/keys')).text);
    const keysBefore = await t.db.kysely
      .selectFrom('api_keys')
      .select('key_id')
      .where('account_id', '=', a.account.accountId)
      .execute();
    const attempts: Array<[string, Record<string, string>]> = [
      ['/account/keys', { name: 'csrf-test', lifetime: '' }],
      [`/account/keys/${a.account.keyId}/revoke`, {}],
      ['/account/password', { current: PASSWORD, password: 'another password 1', confirm: 'another password 1' }],
      ['/account/sign-out', {}],
    ];
    for (const [path, fields] of attempts) {
      for (const csrf of [undefined, '', 'x'.repeat(43), bCsrf]) {
        const res = await a.client.post(path, csrf === undefined ? fields : { ...fields, csrf });
        expect(res.status, `${path} with csrf ${String(csrf)}`).toBe(403);
      }
      // A JSON body carrying the right token is no form: refused as well.
      const token = csrfOf((await a.client.get('/account/keys')).text);
      const res = await fetch(t.url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: [...a.client.cookies].map(([n, v]) => `${n}=${v}`).join('; ') },
        body: JSON.stringify({ ...fields, csrf: token }),
      });
      expect(res.status).toBe(403);
    }
    const keysAfter = await t.db.kysely
      .selectFrom('api_keys')
      .select(['key_id', 'revoked_at'])
      .where('account_id', '=', a.account.accountId)
      .execute();
    expect(keysAfter.map((k) => k.key_id)).toEqual(keysBefore.map((k) => k.key_id));
    expect(keysAfter.every((k) => k.revoked_at === null)).toBe(true);
    expect((await a.client.get('/account/keys')).status).toBe(200); // still signed in
    expect((await new ConsoleClient(t.url).signIn(a.account.email, PASSWORD)).status).toBe(303); // password unchanged

    // The sign-in form has its own token (double submit): without it, no sign-in even with the right password.
    const visitor = new ConsoleClient(t.url);
    await visitor.get('/account/sign-in');
    for (const csrf of [undefined, 'x'.repeat(43)]) {
      const fields = { email: a.account.email, password: PASSWORD, ...(csrf === undefined ? {} : { csrf }) };
      const res = await visitor.post('/account/sign-in', fields);
      expect(res.status).toBe(403);
      expect(res.setCookies.join()).not.toContain('corpdata_session=');
    }
  });

  it('sets HttpOnly, SameSite=Lax, Path=/ cookies (no Secure over http) and stores only a hash of the session token', async () => {
    const account = await t.account({ password: PASSWORD });
    const client = new ConsoleClient(t.url);
    const form = await client.get('/account/sign-in');
    const res = await client.post('/account/sign-in', { csrf: csrfOf(form.text), email: account.email, password: PASSWORD });
    const cookies = [...form.setCookies, ...res.setCookies];
    const session = res.setCookies.find((c) => c.startsWith('corpdata_session='));
    expect(session).toBeDefined();
    for (const c of cookies) {
      expect(c).toMatch(/; HttpOnly/);
      expect(c).toMatch(/; SameSite=Lax/);
      expect(c).toMatch(/; Path=\//);
      expect(c).not.toMatch(/Secure/);
    }
    const token = client.cookies.get('corpdata_session') ?? '';
    const rows = await t.db.kysely
      .selectFrom('console_sessions')
      .selectAll()
      .where('account_id', '=', account.accountId)
      .execute();
    expect(rows.map((r) => r.session_id)).toEqual([createHash('sha256').update(token).digest('hex')]);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('answers a wrong password, an unknown email and an account without password alike', async () => {
    const account = await t.account({ password: PASSWORD });
    const noPassword = await createAccount(
      t.db.kysely,
      { email: `nopw-${Date.now()}@example.com`, now: new Date() },
      SUBSCRIPTIONS,
    );
    const attempt = async (email: string, password: string) => {
      const c = new ConsoleClient(t.url);
      const res = await c.signIn(email, password);
      return { status: res.status, text: res.text.replaceAll(email, 'EMAIL').replace(/value="[A-Za-z0-9_-]{43}"/g, '') };
    };
    const wrong = await attempt(account.email, 'not the password');
    const unknown = await attempt(`nobody-${Date.now()}@example.com`, 'not the password');
    const without = await attempt(noPassword.email, 'not the password');
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('Wrong email or password.');
    expect(unknown).toEqual(wrong);
    expect(without).toEqual(wrong);
  });

  it('throttles sign-in per email and address: after 5 failures, 429 with Retry-After without checking the password', async () => {
    const account = await t.account({ password: PASSWORD });
    const client = new ConsoleClient(t.url);
    for (let i = 0; i < 5; i += 1) expect((await client.signIn(account.email, `wrong ${i}`)).status).toBe(401);
    const refused = await client.signIn(account.email.toUpperCase(), PASSWORD);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(refused.text).toContain('Too many failed sign-ins');
    expect(client.cookies.has('corpdata_session')).toBe(false);
    // Another account from the same address is not locked out by this one.
    const other = await t.account({ password: PASSWORD });
    expect((await new ConsoleClient(t.url).signIn(other.email, PASSWORD)).status).toBe(303);
  });

  it('counts sign-ins sent in parallel from their start: 20 at once get 5 password checks', async () => {
    const account = await t.account({ password: PASSWORD });
    const statuses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => new ConsoleClient(t.url).signIn(account.email, `wrong ${i}`).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
    expect((await new ConsoleClient(t.url).signIn(account.email, PASSWORD)).status).toBe(429);
  });

  it('signs out for good, ends other sessions on a password change, and never redirects off-site', async () => {
    const { account, client } = await signedIn();
    const other = new ConsoleClient(t.url);
    expect((await other.signIn(account.email, PASSWORD)).status).toBe(303);

    const wrong = await client.submit('/account/password', '/account/password', {
      current: 'nope',
      password: 'new password 2',
      confirm: 'new password 2',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('The current password is wrong.');
    const changed = await client.submit('/account/password', '/account/password', {
      current: PASSWORD,
      password: 'new password 2',
      confirm: 'new password 2',
    });
    expect(changed.status).toBe(200);
    expect(changed.text).toContain('Your password is changed');
    expect((await other.get('/account/keys')).status).toBe(303);
    expect((await new ConsoleClient(t.url).signIn(account.email, PASSWORD)).status).toBe(401);
    expect((await new ConsoleClient(t.url).signIn(account.email, 'new password 2')).status).toBe(303);

    const stolen = new Map(client.cookies);
    const out = await client.submit('/account/keys', '/account/sign-out', {});
    expect(out.status).toBe(303);
    expect(out.setCookies.some((c) => /^corpdata_session=;.*Max-Age=0/.test(c))).toBe(true);
    const replay = new ConsoleClient(t.url);
    for (const [n, v] of stolen) replay.cookies.set(n, v);
    const after = await replay.get('/account/keys');
    expect(after.status).toBe(303);
    expect(after.location).toMatch(/^\/account\/sign-in/);

    for (const next of ['//evil.example/', 'https://evil.example/', '/\\evil.example']) {
      const c = new ConsoleClient(t.url);
      const form = await c.get(`/account/sign-in?next=${encodeURIComponent(next)}`);
      const res = await c.post('/account/sign-in', {
        csrf: csrfOf(form.text),
        email: account.email,
        password: 'new password 2',
        next,
      });
      expect(res.status).toBe(303);
      expect(res.location).toBe('/account/keys');
    }
  });

  it('sends private pages with no-store and anti-framing headers', async () => {
    const { client } = await signedIn();
    for (const path of ['/account/keys', '/account/usage', '/account/password', BETA_2023_TRACE]) {
      const res = await client.get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(res.text).toMatch(/<html lang="en">/);
    }
  });
});

describe.each(dialects())('console security with its own app (%s)', (dialect) => {
  let apps: TestApp[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
    apps = [];
  });

  async function account(app: TestApp): Promise<{ email: string; accountId: string }> {
    const email = `own-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
    const a = await createAccount(app.db.kysely, { email, password: PASSWORD, credits: 500, now: new Date() }, SUBSCRIPTIONS);
    return { email, accountId: a.account_id };
  }

  it('adds Secure and the __Host- prefix to every cookie when the public URL is https', async () => {
    const app = await startApp(dialect, { env: { CORPDATA_PUBLIC_URL: 'https://corpdata.test' } });
    apps.push(app);
    const { email } = await account(app);
    const client = new ConsoleClient(app.url);
    const form = await client.get('/account/sign-in');
    const res = await client.post('/account/sign-in', { csrf: csrfOf(form.text), email, password: PASSWORD });
    expect(res.status).toBe(303);
    const cookies = [...form.setCookies, ...res.setCookies];
    expect(cookies.some((c) => c.startsWith('__Host-corpdata_session='))).toBe(true);
    for (const c of cookies) {
      expect(c).toMatch(/^__Host-/);
      expect(c).toMatch(/; Secure/);
      expect(c).toMatch(/; HttpOnly/);
      expect(c).toMatch(/; SameSite=Lax/);
      expect(c).toMatch(/; Path=\//);
    }
    expect((await client.get('/account/keys')).status).toBe(200);
  });

  it('never shows a key after its creation page, nor writes it, the password or the session token to the log', async () => {
    const log = captureLog();
    // The app's own logging (with its redaction), at its most talkative.
    const app = await startApp(dialect, { env: { LOG_LEVEL: 'trace' }, logTo: log.stream });
    apps.push(app);
    const { email } = await account(app);
    const client = new ConsoleClient(app.url);
    expect((await client.signIn(email, PASSWORD)).status).toBe(303);
    const created = await client.submit('/account/keys', '/account/keys', { name: 'log-check', lifetime: '90' });
    expect(created.headers.get('cache-control')).toBe('no-store');
    const { key, keyId } = createdKey(created);
    const signature = key.split('.')[2] ?? '';
    expect((await apiGet(app.url, BETA_2023, key)).status).toBe(200);
    const pages = [
      await client.get('/account/keys'),
      await client.get('/account/usage'),
      await client.get(`/account/usage?key=${keyId}`),
      await client.get(`/account/keys/${keyId}/revoke`),
      await client.get(BETA_2023_TRACE),
    ];
    for (const p of pages) {
      expect(p.status).toBe(200);
      expect(p.text).not.toContain(key);
      expect(p.text).not.toContain(signature);
    }
    expect(pages[0]?.text).toContain('log-check');
    const revoke = await client.post(`/account/keys/${keyId}/revoke`, { csrf: csrfOf(pages[0]?.text ?? '') });
    expect(revoke.status).toBe(303);
    expect((await apiGet(app.url, BETA_2023, key)).status).toBe(401);

    expect(log.text()).toContain('/account/keys');
    const token = client.cookies.get('corpdata_session') ?? '';
    for (const secret of [key, signature, PASSWORD, encodeURIComponent(PASSWORD), token])
      expect(log.text()).not.toContain(secret);
  });

  it('counts failures per client behind a trusted proxy, and ignores X-Forwarded-For from anyone else', async () => {
    const behindProxy = await startApp(dialect, { env: { CORPDATA_TRUST_PROXY: '127.0.0.1' } });
    const direct = await startApp(dialect);
    apps.push(behindProxy, direct);
    const signInFrom = async (app: TestApp, client: string, email: string, password: string) => {
      const c = new ConsoleClient(app.url);
      const form = await c.get('/account/sign-in');
      const forwarded = { 'x-forwarded-for': client };
      return c.request('POST', '/account/sign-in', { csrf: csrfOf(form.text), email, password }, forwarded);
    };
    for (const app of [behindProxy, direct]) {
      for (let i = 0; i < 30; i += 1) {
        // A different claimed address each time: only a trusted proxy's claim may count.
        expect((await signInFrom(app, `198.51.100.${i + 1}`, `guess-${i}@example.com`, 'guess')).status).toBe(401);
      }
    }
    const { email } = await account(behindProxy);
    expect((await signInFrom(behindProxy, '203.0.113.9', email, PASSWORD)).status).toBe(303);
    const directAccount = await account(direct);
    expect((await signInFrom(direct, '203.0.113.9', directAccount.email, PASSWORD)).status).toBe(429);
  });

  it('cannot lock a user out: 5 wrong passwords from one address leave the right one from another signing in', async () => {
    const app = await startApp(dialect, { env: { CORPDATA_TRUST_PROXY: '127.0.0.1' } });
    apps.push(app);
    const { email } = await account(app);
    const signInFrom = async (client: string, password: string) => {
      const c = new ConsoleClient(app.url);
      const form = await c.get('/account/sign-in');
      const forwarded = { 'x-forwarded-for': client };
      const started = performance.now();
      const res = await c.request('POST', '/account/sign-in', { csrf: csrfOf(form.text), email, password }, forwarded);
      return { status: res.status, text: res.text, ms: performance.now() - started };
    };
    for (let i = 0; i < 5; i += 1) expect((await signInFrom('198.51.100.10', `wrong ${i}`)).status).toBe(401);
    // The attacker's address is locked for this email, the right password included (and with a port).
    const locked = await signInFrom('198.51.100.10:5555', PASSWORD);
    expect(locked.status).toBe(429);
    expect(locked.text).toContain('Too many failed sign-ins from this address');
    // The owner, elsewhere, signs in: held a moment (the email's slow-down), not refused.
    const owner = await signInFrom('203.0.113.20', PASSWORD);
    expect(owner.status).toBe(303);
    expect(owner.ms).toBeGreaterThanOrEqual(250);
    // Guesses spread over more addresses are held ever longer (the owner's success is not counted:
    // 0.25 s, then 0.5 s, then 1 s), never locking the email.
    const second = await signInFrom('198.51.100.11', 'wrong again');
    const third = await signInFrom('198.51.100.12', 'wrong again');
    expect([second.status, third.status]).toEqual([401, 401]);
    expect(second.ms).toBeGreaterThanOrEqual(250);
    expect(third.ms).toBeGreaterThanOrEqual(500);
    const later = await signInFrom('[2001:db8:20::1]:443', PASSWORD);
    expect(later.status).toBe(303);
    expect(later.ms).toBeGreaterThanOrEqual(1000);
    expect((await signInFrom('198.51.100.10', PASSWORD)).status).toBe(429);
  });

  it('throttles per address after 30 failures, forgets failures after 15 minutes, and ends sessions after 12 hours', async () => {
    let now = Date.now();
    const app = await startApp(dialect, { clock: () => new Date(now) });
    apps.push(app);
    const { email } = await account(app);
    const client = new ConsoleClient(app.url);
    for (let i = 0; i < 30; i += 1) expect((await client.signIn(`guess-${i}@example.com`, 'guess')).status).toBe(401);
    const refused = await client.signIn(email, PASSWORD);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);

    now += 15 * 60 * 1000 + 1000;
    expect((await client.signIn(email, PASSWORD)).status).toBe(303);
    expect((await client.get('/account/keys')).status).toBe(200);

    now += 12 * 60 * 60 * 1000;
    const expired = await client.get('/account/keys');
    expect(expired.status).toBe(303);
    expect(expired.location).toMatch(/^\/account\/sign-in/);
  });
});
