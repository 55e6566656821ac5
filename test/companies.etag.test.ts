import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TEST_TOKEN } from '../src/auth/test-token.js';
import { importBundle } from '../src/ingest/bundle/import-bundle.js';
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
    }
    // The same ETag for the gzip answer: it names the list, not its encoding.
    const gzip = await t.get(LIST, a.key, { 'accept-encoding': 'gzip', 'if-none-match': etag });
    expect(gzip.status).toBe(304);

    const stale = await t.get(LIST, a.key, { 'if-none-match': '"not-the-current-one"' });
    expect([stale.status, stale.cost, stale.balance]).toEqual([402, 100, 50]);
    const rows = await t.db.kysely.selectFrom('ledger').select('amount').where('account_id', '=', a.accountId).execute();
    expect(rows).toHaveLength(2); // the grant and the one paid list
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
    await importBundle(t.db.kysely, bundle);
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

  it('gives the test token an ETag too', async () => {
    const res = await t.get(LIST, TEST_TOKEN);
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toMatch(/^"/);
  });
});
