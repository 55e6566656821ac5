import { generateKeyPair, SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createKey, revokeKey } from '../src/auth/api-keys.js';
import { dialects } from './support/dialects.js';
import { startApp, TEST_SECRET, type TestApp } from './support/test-app.js';

const PATH = '/api/v1/revenues?ticker=BETA&reporting_period=2023';
const secret = new TextEncoder().encode(TEST_SECRET);
const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');

describe.each(dialects())('authentication (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(dialect);
  });
  afterAll(() => t.close());
  afterEach(() => t.expectLedgersBalance());

  async function expect401(authorization: string | undefined, pattern: RegExp) {
    const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
    for (const path of [PATH, '/api/v1/companies/search?query=beta', '/api/v1/companies/list']) {
      const res = await t.get(path, null, headers);
      expect(res.status, `${authorization} on ${path}`).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(res.text).toMatch(pattern);
      const token = authorization?.split(' ')[1];
      if (token !== undefined && token.length > 8) expect(res.text).not.toContain(token);
    }
  }

  it('refuses a missing credential', () => expect401(undefined, /Missing credentials/));

  it('reads the scheme name without regard to case, as HTTP does', async () => {
    const { key } = await t.account();
    for (const scheme of ['bearer', 'BEARER', 'Bearer']) {
      expect((await t.get('/api/v1/companies/search?query=beta', null, { authorization: `${scheme} ${key}` })).status).toBe(200);
    }
  });

  it('refuses malformed headers', async () => {
    const { key } = await t.account();
    await expect401(`Basic ${key}`, /Malformed/);
    await expect401('Bearer', /Malformed/);
    await expect401(`Bearer ${key} extra`, /Malformed/);
    await expect401('Bearer not.a-jwt', /Malformed/);
  });

  it('refuses a bad signature', async () => {
    const { key, accountId, keyId } = await t.account();
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(accountId)
      .setJti(keyId)
      .setIssuedAt()
      .sign(new TextEncoder().encode('another-secret-another-secret-00'));
    await expect401(`Bearer ${forged}`, /signature/);
    const [h, p, s] = key.split('.');
    const tampered = `${h}.${b64({ sub: accountId, jti: keyId, iat: 1, admin: true })}.${s}`;
    expect(p).toBeDefined();
    await expect401(`Bearer ${tampered}`, /signature/);
  });

  it('refuses alg none and any algorithm but HS256', async () => {
    const { accountId, keyId } = await t.account();
    const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: accountId, jti: keyId, iat: 1 })}.`;
    await expect401(`Bearer ${none}`, /Malformed|algorithm/);
    const hs512 = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS512' })
      .setSubject(accountId)
      .setJti(keyId)
      .setIssuedAt()
      .sign(secret);
    await expect401(`Bearer ${hs512}`, /algorithm/);
    const { privateKey } = await generateKeyPair('RS256');
    const rs = await new SignJWT({})
      .setProtectedHeader({ alg: 'RS256' })
      .setSubject(accountId)
      .setJti(keyId)
      .setIssuedAt()
      .sign(privateKey);
    await expect401(`Bearer ${rs}`, /algorithm/);
  });

  it('refuses an expired key and a key whose id or account is unknown', async () => {
    const { accountId } = await t.account();
    const past = new Date(Date.now() - 3_600_000);
    const expired = await createKey(t.db.kysely, {
      accountId,
      name: 'short',
      secret: TEST_SECRET,
      now: past,
      expiresInSeconds: 60,
    });
    await expect401(`Bearer ${expired.api_key}`, /Expired/);
    const unknownKey = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(accountId)
      .setJti('00000000-0000-4000-8000-00000000dead')
      .setIssuedAt()
      .sign(secret);
    await expect401(`Bearer ${unknownKey}`, /Revoked or unknown/);
    const other = await t.account();
    const wrongAccount = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(accountId)
      .setJti(other.keyId)
      .setIssuedAt()
      .sign(secret);
    await expect401(`Bearer ${wrongAccount}`, /Revoked or unknown/);
  });

  it('honours a revocation within one second, and the key stays refused', async () => {
    const { key, keyId } = await t.account();
    expect((await t.get(PATH, key)).status).toBe(200);
    expect(await revokeKey(t.db.kysely, keyId, new Date())).toBe(true);
    const deadline = Date.now() + 1000;
    let status = 200;
    while (Date.now() < deadline && status !== 401) {
      status = (await t.get(PATH, key)).status;
      if (status !== 401) await new Promise((r) => setTimeout(r, 20));
    }
    expect(status).toBe(401);
    await expect401(`Bearer ${key}`, /Revoked/);
  });

  it('checks the key before the parameters: 401 before 400', async () => {
    const res = await t.get('/api/v1/revenues?reporting_year=1', 'garbage');
    expect(res.status).toBe(401);
  });

  it('answers 403 without a revenues subscription, with the first-access price and the balance; free', async () => {
    const { key } = await t.account({ credits: 40, subscription: 'none' });
    const res = await t.get(PATH, key);
    expect(res.status).toBe(403);
    expect([res.cost, res.balance]).toEqual([25, 40]);
    expect((await t.get('/api/v1/revenues?ticker=BETA&reporting_period=2030', key)).status).toBe(400);
    const search = await t.get('/api/v1/companies/search?query=beta', key);
    expect(search.status).toBe(200);
    expect(search.balance).toBe(39);
  });

  it('checks the subscription before the company: 403 before 404', async () => {
    const { key } = await t.account({ credits: 40, subscription: 'none' });
    const res = await t.get('/api/v1/revenues?ticker=NOSUCH&reporting_period=2023', key);
    expect([res.status, res.balance]).toEqual([403, 40]);
  });

  it('looks for the data before the credits: 404 before 402, and free', async () => {
    const { key, accountId } = await t.account({ credits: 0 });
    for (const path of [
      '/api/v1/revenues?ticker=NOSUCH&reporting_period=2023',
      '/api/v1/revenues?ticker=BETA&reporting_period=2020',
    ]) {
      expect((await t.get(path, key)).status, path).toBe(404);
    }
    expect(await t.db.kysely.selectFrom('ledger').select('amount').where('account_id', '=', accountId).execute()).toEqual([]);
  });

  it('serves /, /docs and /api/v1/openapi.json without credentials', async () => {
    for (const path of ['/', '/docs', '/api/v1/openapi.json']) {
      const res = await t.get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
    for (const path of ['/', '/docs']) {
      const res = await t.get(path);
      expect(res.headers.get('content-security-policy'), path).toContain("frame-ancestors 'none'");
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
    }
    const missing = await t.get('/no/such/<b>page</b>');
    expect([missing.status, missing.headers.get('x-content-type-options')]).toEqual([404, 'nosniff']);
  });
});
