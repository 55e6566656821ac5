import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from './support/dialects.js';
import { startApp, type TestApp } from './support/test-app.js';

const API_PATHS = [
  '/api/v1/revenues?ticker=BETA&reporting_period=2023',
  '/api/v1/revenues/periods?ticker=BETA',
  '/api/v1/companies/search?query=beta',
  '/api/v1/companies/list',
  '/api/v1/account',
  '/api/v1/trace/20000000-0000-4000-8000-000000000003',
  '/api/v1/openapi.json',
];

describe.each(dialects())('method discipline (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(dialect);
  });
  afterAll(() => t.close());
  afterEach(() => t.expectLedgersBalance());

  it('answers HEAD and every other method on the API with 405 and Allow: GET, charging nothing', async () => {
    const a = await t.account({ credits: 1000 });
    for (const path of API_PATHS) {
      // Fastify's common methods and the rarer ones Node's parser accepts too (WebDAV and others).
      for (const method of ['HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND', 'LOCK', 'SEARCH', 'PURGE']) {
        const res = await fetch(t.url + path, {
          method,
          headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' },
          ...(method === 'POST' || method === 'PUT' || method === 'PATCH' ? { body: '{}' } : {}),
        });
        const text = await res.text();
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(res.headers.get('allow')).toBe('GET');
        expect(res.headers.get('x-request-id')).toBeTruthy();
        expect(res.headers.get('access-control-allow-origin')).toBeNull();
        if (method !== 'HEAD') expect(text).toBe(`Method ${method} is not allowed: the API answers GET only.`);
      }
    }
    expect((await t.get('/api/v1/account', a.key)).json()).toMatchObject({ balance: 1000 });
    const rows = await t.db.kysely.selectFrom('ledger').select('account_id').where('account_id', '=', a.accountId).execute();
    expect(rows).toHaveLength(1); // the grant at creation, nothing since
  });

  it('answers a CORS preflight with 405 and no CORS headers: keys never belong in browser code', async () => {
    const res = await fetch(`${t.url}/api/v1/revenues?ticker=BETA&reporting_period=2023`, {
      method: 'OPTIONS',
      headers: { origin: 'https://example.com', 'access-control-request-method': 'GET' },
    });
    expect(res.status).toBe(405);
    for (const [name] of res.headers) expect(name).not.toMatch(/^access-control-/);
  });

  it('keeps unknown paths 404 whatever the method, and pages answer HEAD', async () => {
    expect((await fetch(`${t.url}/api/v1/nothing`, { method: 'POST' })).status).toBe(404);
    expect((await fetch(`${t.url}/api/v1/nothing`)).status).toBe(404);
    expect((await fetch(`${t.url}/`, { method: 'HEAD' })).status).toBe(200);
  });
});
