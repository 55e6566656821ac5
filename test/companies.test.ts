import { gunzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from './support/dialects.js';
import { ALPHA, BETA, DELTA, QUIET } from './support/fixture.js';
import { startApp, type TestAccount, type TestApp } from './support/test-app.js';

interface CompanyRecord {
  company_id: string;
  company_name: string;
  ticker: string;
  mic_code: string;
  country: string | null;
}

describe.each(dialects())('company search and list (%s)', (dialect) => {
  let t: TestApp;
  let caller: TestAccount;
  beforeAll(async () => {
    t = await startApp(dialect);
    caller = await t.account({ credits: 100_000 });
  });
  afterAll(() => t.close());
  afterEach(() => t.expectLedgersBalance());

  const search = async (query: string) => {
    const res = await t.get(`/api/v1/companies/search?query=${encodeURIComponent(query)}`, caller.key);
    expect(res.status, query).toBe(200);
    return res.json<CompanyRecord[]>();
  };

  it('returns exactly the five fields of a company record, with the primary listing', async () => {
    const [alpha] = await search('ALPH');
    expect(alpha).toEqual({
      company_id: ALPHA.id,
      company_name: 'Alpha Industries AG',
      ticker: 'ALPH',
      mic_code: 'XETR',
      country: 'Germany',
    });
    const [quiet] = await search('QUIET');
    expect(quiet).toEqual({
      company_id: QUIET.id,
      company_name: 'Quiet Shell Company',
      ticker: 'QUIET',
      mic_code: 'XNGS',
      country: null,
    });
  });

  it('ranks an exact ticker first, then an exact name, then prefixes', async () => {
    expect((await search('beta'))[0]?.company_id).toBe(BETA.id);
    expect((await search('alphy'))[0]?.company_id).toBe(ALPHA.id);
    expect((await search('Alpha Industries'))[0]?.company_id).toBe(ALPHA.id);
    expect((await search('alp'))[0]?.company_id).toBe(ALPHA.id);
  });

  it('ignores case, accents and legal suffixes, and finds near misses', async () => {
    expect((await search('delta mining'))[0]?.company_id).toBe(DELTA.id);
    expect((await search('DÉLTA MINING SA'))[0]?.company_id).toBe(DELTA.id);
    expect((await search('Alpha Industries Inc'))[0]?.company_id).toBe(ALPHA.id);
    expect((await search('Alpah Industries'))[0]?.company_id).toBe(ALPHA.id);
    expect((await search('corporation beta'))[0]?.company_id).toBe(BETA.id);
  });

  it('returns at most ten results and an empty array when nothing matches', async () => {
    expect((await search('t')).length).toBeLessThanOrEqual(10);
    expect(await search('zzzzqqqq')).toEqual([]);
  });

  it('validates the query: 1 to 100 characters, no other parameter', async () => {
    for (const [q, name] of [
      ['query=', 'query'],
      [`query=${'a'.repeat(101)}`, 'query'],
      ['', 'query'],
      ['query=a&limit=5', 'limit'],
      ['query=a&query=b', 'query'],
    ] as const) {
      const res = await t.get(`/api/v1/companies/search?${q}`, caller.key);
      expect(res.status, q).toBe(400);
      expect(res.text).toContain(`'${name}'`);
    }
    expect((await t.get(`/api/v1/companies/search?query=${'a'.repeat(100)}`, caller.key)).status).toBe(200);
  });

  it('lists every company, gzip-compressed when asked, identical either way', async () => {
    const plain = await t.get('/api/v1/companies/list', caller.key, { 'accept-encoding': 'identity' });
    expect(plain.status).toBe(200);
    const companies = plain.json<CompanyRecord[]>();
    expect(companies).toHaveLength(9);
    const res = await fetch(`${t.url}/api/v1/companies/list`, {
      headers: { authorization: `Bearer ${caller.key}`, 'accept-encoding': 'gzip' },
    });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('x-credit-cost')).toBe('100');
    const raw = Buffer.from(await res.arrayBuffer());
    // fetch decompresses transparently; either way the body must be the same list
    const body = raw[0] === 0x1f ? gunzipSync(raw).toString() : raw.toString();
    expect(JSON.parse(body)).toEqual(companies);
    expect((await t.get('/api/v1/companies/list?page=2', caller.key)).status).toBe(400);
  });
});
