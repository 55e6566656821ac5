import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TEST_TOKEN } from '../src/auth/test-token.js';
import { pointId } from '../src/ingest/sources/bundle/import-bundle.js';
import { ConsoleClient } from './support/console-client.js';
import { dialects } from './support/dialects.js';
import { ALPHA, BETA, doc } from './support/fixture.js';
import { PUBLIC_URL, startApp, type TestApp } from './support/test-app.js';

const PASSWORD = 'provenance password';
/** ALPHA 2023, in EUR: 21,427,000,000 EUR at 1.08127 USD per EUR. */
const ALPHA_2023 = pointId(doc(2), 2023);
const BETA_2023 = pointId(doc(3), 2023);
const JSON_ACCEPT = { accept: 'application/json' };

interface Provenance {
  data_point_id: string;
  company_id: string;
  reporting_period: number;
  document: { document_id: string; title: string; source_url: string; published_on: string; status: string };
  original_ccy: string;
  values_included: boolean;
  values: null | { value: number; original_value: number | null; original_ccy: string; fx_rate: string; fx_source: string };
  traceability_source_url: string;
}

describe.each(dialects())('provenance as JSON (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(dialect);
  });
  afterAll(() => t.close());
  afterEach(() => t.expectLedgersBalance());

  it('GET /api/v1/trace/{id}: the source for any key, free; the figures once the account bought them', async () => {
    const a = await t.account({ credits: 100 });
    const before = await t.get(`/api/v1/trace/${ALPHA_2023}`, a.key);
    expect(before.status).toBe(200);
    expect([before.cost, before.balance]).toEqual([0, 100]);
    expect(before.json()).toEqual({
      data_point_id: ALPHA_2023,
      company_id: ALPHA.id,
      company_name: 'Alpha Industries AG',
      metric: 'Total Revenue',
      concept: null,
      reporting_period: 2023,
      period: null,
      filing: null,
      candidates: [],
      bounds: [],
      confirmed_by: [],
      document: {
        document_id: doc(2),
        title: 'Alpha Annual Report 2023',
        source_url: 'https://example.com/alpha/ar2023.pdf',
        published_on: '2024-03-14',
        status: 'processed',
      },
      original_ccy: 'EUR',
      values_included: false,
      values: null,
      traceability_source_url: `${PUBLIC_URL}/trace/${ALPHA_2023}`,
    });
    expect(before.text).not.toContain('21427000000');

    const paid = await t.get('/api/v1/revenues?ticker=ALPH&mic_code=XETR&reporting_period=2023', a.key);
    expect([paid.status, paid.cost]).toEqual([200, 25]);
    const record = paid.json<Array<{ value: number; traceability_source_url: string }>>()[0];
    const after = await t.get(`/api/v1/trace/${ALPHA_2023}`, a.key);
    expect([after.cost, after.balance]).toEqual([0, 75]);
    const p = after.json<Provenance>();
    expect(p.values_included).toBe(true);
    expect(p.values).toEqual({
      value: record?.value,
      ccy: 'USD',
      original_value: 21427000000,
      original_ccy: 'EUR',
      fx_rate: '1.08127',
      fx_source: 'IMF IFS annual average (test fixture)',
    });
    expect(p.traceability_source_url).toBe(record?.traceability_source_url);
    // Another account's key still sees no figures.
    const other = await t.account();
    expect((await t.get(`/api/v1/trace/${ALPHA_2023}`, other.key)).json<Provenance>().values).toBeNull();
    const rows = await t.db.kysely.selectFrom('ledger').select('amount').where('account_id', '=', a.accountId).execute();
    expect(rows).toHaveLength(2); // the grant and the revenues call: provenance writes nothing
  });

  it('GET /api/v1/trace/{id} refuses: 401 without a key, 400 for a malformed id, 404 for an unknown one', async () => {
    const a = await t.account();
    const none = await t.get(`/api/v1/trace/${BETA_2023}`);
    expect(none.status).toBe(401);
    const bad = await t.get('/api/v1/trace/not-a-uuid', a.key);
    expect(bad.status).toBe(400);
    expect(bad.text).toBe(
      'Invalid parameter \'id\': a data point id: a UUID, or for an intensity two UUIDs joined by "~"; or the id of a mock record (mock-…), answered as mock data.',
    );
    const unknown = await t.get('/api/v1/trace/00000000-0000-4000-8000-00000000ffff', a.key);
    expect(unknown.status).toBe(404);
    expect((await t.get(`/api/v1/trace/${BETA_2023}?verbose=1`, a.key)).status).toBe(400);
    // Neither a subscription nor credits are needed to read where a figure comes from.
    const poor = await t.account({ credits: 0, subscription: 'none' });
    expect((await t.get(`/api/v1/trace/${BETA_2023}`, poor.key)).status).toBe(200);
    expect((await t.get(`/api/v1/trace/${BETA_2023}`, TEST_TOKEN)).json<Provenance>().values).toBeNull();
  });

  it('/trace/{id} with Accept: application/json: metadata for a visitor, values for a console session that bought', async () => {
    const visitor = await fetch(`${t.url}/trace/${BETA_2023}`, { headers: JSON_ACCEPT });
    expect(visitor.status).toBe(200);
    expect(visitor.headers.get('content-type')).toMatch(/^application\/json/);
    expect(visitor.headers.get('vary')).toMatch(/accept/i);
    const seen = (await visitor.json()) as Provenance;
    expect(seen).toMatchObject({ data_point_id: BETA_2023, company_id: BETA.id, values_included: false, values: null });

    const account = await t.account({ password: PASSWORD });
    const client = new ConsoleClient(t.url);
    expect((await client.signIn(account.email, PASSWORD)).status).toBe(303);
    const notBought = await client.request('GET', `/trace/${BETA_2023}`, undefined, JSON_ACCEPT);
    expect((JSON.parse(notBought.text) as Provenance).values).toBeNull();
    expect((await t.get('/api/v1/revenues?ticker=BETA&reporting_period=2023', account.key)).status).toBe(200);
    const bought = JSON.parse((await client.request('GET', `/trace/${BETA_2023}`, undefined, JSON_ACCEPT)).text) as Provenance;
    expect(bought.values).toMatchObject({ value: 8362000000, original_ccy: 'USD', fx_rate: '1' });

    // The same by API key, without a session: values for the account that bought, none for another.
    const byKey = (key: string) =>
      fetch(`${t.url}/trace/${BETA_2023}`, { headers: { ...JSON_ACCEPT, authorization: `Bearer ${key}` } });
    expect(((await (await byKey(account.key)).json()) as Provenance).values).toMatchObject({ value: 8362000000 });
    expect(((await (await byKey((await t.account()).key)).json()) as Provenance).values).toBeNull();
    const badKey = await byKey('not-a-key');
    expect([badKey.status, badKey.headers.get('www-authenticate')]).toEqual([401, 'Bearer']);
    // JSON was asked for: the refusal is problem details (RFC 9457), as on the API.
    expect(badKey.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await badKey.json()).toMatchObject({ status: 401, title: 'Unauthorized' });

    // A browser still gets the page; an unknown id is a plain 404.
    const page = await fetch(`${t.url}/trace/${BETA_2023}`, { headers: { accept: 'text/html,application/json;q=0.9' } });
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const missing = await fetch(`${t.url}/trace/00000000-0000-4000-8000-00000000ffff`, { headers: JSON_ACCEPT });
    expect(missing.status).toBe(404);
  });
});
