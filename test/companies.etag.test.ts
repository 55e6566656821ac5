import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TEST_TOKEN } from '../src/auth/test-token.js';
import { importBundle } from '../src/ingest/sources/bundle/import-bundle.js';
import { BUNDLES } from './support/datasets.js';
import { dialects } from './support/dialects.js';
import { startApp, type TestApp } from './support/test-app.js';

const LIST = '/api/v1/companies/list';

describe.each(dialects())('companies/list validators (%s)', (dialect) => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    t = await startApp(dialect);
    dir = mkdtempSync(join(tmpdir(), 'corpdata-etag-'));
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });
  afterEach(() => t.expectLedgersBalance());

  /** The list as a client asks for it with this Accept-Encoding (fetch would add and undo gzip itself). */
  const rawList = async (key: string, acceptEncoding: string, ifNoneMatch?: string) =>
    new Promise<{ status: number; headers: Headers }>((resolve, reject) => {
      const headers: Record<string, string> = { authorization: `Bearer ${key}`, 'accept-encoding': acceptEncoding };
      if (ifNoneMatch !== undefined) headers['if-none-match'] = ifNoneMatch;
      const req = request(`${t.url}${LIST}`, { headers }, (res) => {
        res.resume();
        res.on('end', () => {
          const h = new Headers();
          for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') h.set(name, value);
          resolve({ status: res.statusCode ?? 0, headers: h });
        });
      });
      req.on('error', reject);
      req.end();
    });

  it('sends a strong ETag; If-None-Match with it gets a free 304, as often as asked', async () => {
    const a = await t.account({ credits: 150 });
    const first = await t.get(LIST, a.key);
    expect([first.status, first.cost, first.balance]).toEqual([200, 100, 50]);
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/); // strong: no W/ prefix
    for (const inm of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await t.get(LIST, a.key, { 'if-none-match': inm });
      expect(again.status, inm).toBe(304);
      expect(again.text).toBe('');
      expect(again.headers.get('etag')).toBe(etag);
      expect([again.cost, again.balance]).toEqual([0, 50]);
      // The answer depends on Accept-Encoding, the 304 included (RFC 9110 §15.4.5).
      expect(again.headers.get('vary')).toMatch(/accept-encoding/i);
    }

    const stale = await t.get(LIST, a.key, { 'if-none-match': '"not-the-current-one"' });
    expect([stale.status, stale.cost, stale.balance]).toEqual([402, 100, 50]);
    // A refusal is no representation of the list: it names no validator.
    expect(stale.headers.get('etag')).toBeNull();
    const rows = await t.db.kysely.selectFrom('ledger').select('amount').where('account_id', '=', a.accountId).execute();
    expect(rows).toHaveLength(2); // the grant and the one paid list
  });

  it('gives the gzip answer a strong ETag of its own: another representation, another validator', async () => {
    const a = await t.account({ credits: 250 });
    const identity = await rawList(a.key, 'identity');
    const gzip = await rawList(a.key, 'gzip');
    expect([identity.status, gzip.status]).toEqual([200, 200]);
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    expect(identity.headers.get('content-encoding')).toBeNull();
    const identityTag = identity.headers.get('etag') ?? '';
    const gzipTag = gzip.headers.get('etag') ?? '';
    expect(gzipTag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(gzipTag).not.toBe(identityTag);
    for (const [encoding, tag, other] of [
      ['gzip', gzipTag, identityTag],
      ['identity', identityTag, gzipTag],
    ] as const) {
      const again = await rawList(a.key, encoding, tag);
      expect([again.status, again.headers.get('etag')], encoding).toEqual([304, tag]);
      expect(again.headers.get('vary')).toMatch(/accept-encoding/i);
      // The other representation's validator does not match this one (a 402 here: 50 credits left).
      expect((await rawList(a.key, encoding, other)).status, encoding).toBe(402);
    }
    // gzip;q=0 refuses gzip.
    expect((await rawList(a.key, 'gzip;q=0, identity', identityTag)).status).toBe(304);
  });

  it('checks the key and the query before the validator: 401 and 400 stay as they are', async () => {
    const a = await t.account();
    const etag = (await t.get(LIST, a.key)).headers.get('etag') ?? '';
    expect((await t.get(LIST, null, { 'if-none-match': etag })).status).toBe(401);
    expect((await t.get(`${LIST}?page=2`, a.key, { 'if-none-match': etag })).status).toBe(400);
  });

  it('answers 200 with a new ETag once the catalog changed', async () => {
    const a = await t.account({ credits: 1000 });
    const before = await t.get(LIST, a.key);
    const etag = before.headers.get('etag') ?? '';
    const bundle = join(dir, 'bundle');
    rmSync(bundle, { recursive: true, force: true });
    mkdirSync(bundle);
    writeFileSync(
      join(bundle, 'companies.csv'),
      'company_id,name,country,lei,ticker,mic_code,isin\n' +
        '00000000-0000-4000-8000-0000000000e1,Etag Newcomer Inc,United States,,ETAGN,XNYS,\n',
    );
    await importBundle(t.db.kysely, bundle, BUNDLES);
    const deadline = Date.now() + 5_000;
    let after = await t.get(LIST, a.key, { 'if-none-match': etag });
    while (after.status === 304 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 25));
      after = await t.get(LIST, a.key, { 'if-none-match': etag });
    }
    expect([after.status, after.cost]).toEqual([200, 100]);
    expect(after.headers.get('etag')).not.toBe(etag);
    expect(after.text).toContain('Etag Newcomer Inc');
    expect((await t.get(LIST, a.key, { 'if-none-match': after.headers.get('etag') ?? '' })).status).toBe(304);
  });

  it('gives the test token an ETag too, and honours If-None-Match as a key does', async () => {
    const res = await t.get(LIST, TEST_TOKEN);
    expect(res.status).toBe(200);
    const etag = res.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"/);
    const again = await t.get(LIST, TEST_TOKEN, { 'if-none-match': etag });
    expect([again.status, again.text, again.cost]).toEqual([304, '', 0]);
    expect((await t.get(LIST, TEST_TOKEN, { 'if-none-match': '"other"' })).status).toBe(200);
  });
});
