import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../src/auth/api-keys.js';
import { TEST_TOKEN } from '../src/auth/test-token.js';
import type { Response } from './support/api-client.js';
import { ConsoleClient } from './support/console-client.js';
import { dialects } from './support/dialects.js';
import { rawRequest } from './support/raw-http.js';
import { startApp, TEST_SECRET, type TestApp } from './support/test-app.js';

const SEARCH = '/api/v1/companies/search?query=beta';

function expectLimitHeaders(res: Response, quota: number, window: number): void {
  expect(res.headers.get('ratelimit-policy')).toBe(`"default";q=${quota};w=${window}`);
  expect(res.headers.get('ratelimit')).toMatch(/^"default";r=[0-9]+;t=[0-9]+$/);
}

describe.each(dialects())('rate limits (%s)', (dialect) => {
  describe('5 requests a second', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startApp(dialect, { env: { CORPDATA_RATE_LIMIT: '5/s' } });
    });
    afterAll(() => t.close());
    afterEach(() => t.expectLedgersBalance());

    it('refuses a burst beyond the limit with 429 and Retry-After, free, then serves again', async () => {
      const a = await t.account({ credits: 100 });
      const started = performance.now();
      const burst = await Promise.all(Array.from({ length: 12 }, () => t.get(SEARCH, a.key)));
      const seconds = (performance.now() - started) / 1000;
      const passed = burst.filter((r) => r.status === 200);
      const refused = burst.filter((r) => r.status === 429);
      expect(passed.length + refused.length).toBe(12);
      expect(passed.length).toBeGreaterThanOrEqual(5);
      // The burst, plus the tokens refilled (5 a second) while the twelve were answered.
      expect(passed.length).toBeLessThanOrEqual(Math.min(11, 5 + Math.ceil(seconds * 5)));
      expect(refused.length).toBeGreaterThan(0);
      for (const r of refused) {
        expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(r.headers.get('content-type')).toMatch(/^text\/plain/);
        expect(r.text).toMatch(/^Too many requests: at most 5 per second; retry in [0-9]+ s\.$/);
        expect(r.cost).toBeNull(); // not billed: no credit headers, nothing charged
        expectLimitHeaders(r, 5, 1);
        expect(r.headers.get('ratelimit')).toMatch(/r=0;/);
      }
      const retryAfter = Math.max(...refused.map((r) => Number(r.headers.get('retry-after'))));
      await new Promise((r) => setTimeout(r, retryAfter * 1000));
      const restored = await t.get('/api/v1/account', a.key);
      expect(restored.status).toBe(200);
      // Only the calls that passed were charged, 1 credit each.
      expect(restored.json()).toMatchObject({ balance: 100 - passed.length });
      const rows = await t.db.kysely.selectFrom('ledger').select('amount').where('account_id', '=', a.accountId).execute();
      expect(rows).toHaveLength(1 + passed.length);
    });

    it('counts per account: one account over its limit does not slow another', async () => {
      const a = await t.account();
      const b = await t.account();
      await Promise.all(Array.from({ length: 8 }, () => t.get('/api/v1/account', a.key)));
      expect((await t.get('/api/v1/account', a.key)).status).toBe(429);
      expect((await t.get('/api/v1/account', b.key)).status).toBe(200);
    });

    it('counts requests without a valid key per client address, made-up keys included', async () => {
      await new Promise((r) => setTimeout(r, 1100)); // a full bucket for this address
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) => t.get('/api/v1/account', i % 2 === 0 ? null : `made.up.key${i}`)),
      );
      expect(answers.filter((r) => r.status === 401).length).toBeLessThanOrEqual(6);
      expect(answers.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(2);
      // The published test token is shared by everyone: it counts per address too.
      expect((await t.get('/api/v1/account', TEST_TOKEN)).status).toBe(429);
      const a = await t.account();
      expect((await t.get('/api/v1/account', a.key)).status).toBe(200);
    });

    it('sends the RateLimit headers on every API answer, and none on pages', async () => {
      await new Promise((r) => setTimeout(r, 1100));
      const a = await t.account({ credits: 0 });
      const answers = [
        await t.get('/api/v1/account', a.key), // 200
        await t.get('/api/v1/account?x=1', a.key), // 400
        await t.get(SEARCH, a.key), // 402
        await t.get('/api/v1/revenues/periods?ticker=NOPE', a.key), // 404
      ];
      expect(answers.map((r) => r.status)).toEqual([200, 400, 402, 404]);
      const remaining = answers.map((r) => Number(/r=([0-9]+)/.exec(r.headers.get('ratelimit') ?? '')?.[1]));
      for (const r of answers) expectLimitHeaders(r, 5, 1);
      expect(remaining[0]).toBeGreaterThan(remaining[3] ?? 99);
      const page = await fetch(`${t.url}/`);
      expect(page.headers.get('ratelimit-policy')).toBeNull();
    });
  });

  describe('cannot be sidestepped (5 a second)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startApp(dialect, { env: { CORPDATA_RATE_LIMIT: '5/s', CORPDATA_TRUST_PROXY: '127.0.0.1' } });
    });
    afterAll(() => t.close());
    afterEach(() => t.expectLedgersBalance());

    /** A burst of raw requests (sent exactly as written), each on its own connection. */
    const burst = (target: string, headers: Record<string, string>, n = 12) =>
      Promise.all(
        Array.from({ length: n }, () =>
          rawRequest(
            t.url,
            `GET ${target} HTTP/1.1\r\nHost: x\r\n${Object.entries(headers)
              .map(([k, v]) => `${k}: ${v}\r\n`)
              .join('')}Connection: close\r\n\r\n`,
          ),
        ),
      );
    const statuses = (answers: Array<{ status: number }>) => answers.map((a) => a.status);
    /** A fresh address for each case, so that no case spends another's bucket. */
    let next = 0;
    const address = () => `198.51.100.${++next}`;

    it.each([
      ['a percent-encoded prefix', '/%61pi/v1/account'],
      ['a percent-encoded segment', '/api/%76%31/account'],
      ['the absolute form', 'http://x/api/v1/account'],
      ['the absolute form, encoded', 'http://x/%61pi/v1/account'],
    ])('%s is limited as the route it reaches', async (_name, target) => {
      const a = await t.account({ credits: 100 });
      const answers = await burst(target, { authorization: `Bearer ${a.key}` });
      const passed = answers.filter((r) => r.status === 200);
      expect(passed.length, JSON.stringify(statuses(answers))).toBeGreaterThanOrEqual(5);
      expect(passed.length).toBeLessThanOrEqual(6);
      expect(answers.filter((r) => r.status === 429).length).toBe(12 - passed.length);
      for (const r of answers) expect(r.headers.get('ratelimit-policy')).toBe('"default";q=5;w=1');
    });

    it('made-up keys on an encoded path are limited per address too', async () => {
      const answers = await burst('/%61pi/v1/account', { authorization: 'Bearer made.up.key', 'x-forwarded-for': address() });
      expect(answers.filter((r) => r.status === 401).length).toBeLessThanOrEqual(6);
      expect(answers.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(6);
    });

    it('trace pages asked for JSON, and as pages, are limited per caller', async () => {
      const id = '00000000-0000-4000-8000-00000000dead';
      for (const accept of ['application/json', 'text/html']) {
        const answers = await burst(`/trace/${id}`, { accept, 'x-forwarded-for': address() });
        expect(answers.filter((r) => r.status === 404).length, accept).toBeLessThanOrEqual(6);
        expect(
          answers.filter((r) => r.status === 429).length,
          `${accept} ${JSON.stringify(statuses(answers))}`,
        ).toBeGreaterThanOrEqual(6);
      }
    });

    it('unauthenticated requests behind a trusted proxy count per IPv6 /64, not per exact address', async () => {
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          t.get('/api/v1/account', null, { 'x-forwarded-for': `2001:db8:5:6:${i.toString(16)}::${i + 1}` }),
        ),
      );
      expect(answers.filter((r) => r.status === 401).length, JSON.stringify(statuses(answers))).toBeLessThanOrEqual(6);
      expect(answers.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(6);
      // Another /64 has a bucket of its own.
      expect((await t.get('/api/v1/account', null, { 'x-forwarded-for': '2001:db8:5:7::1' })).status).toBe(401);
    });

    it('the health probes are limited per address', async () => {
      for (const probe of ['/healthz', '/readyz']) {
        const answers = await burst(probe, { 'x-forwarded-for': address() });
        expect(answers.filter((r) => r.status === 200).length, probe).toBeLessThanOrEqual(6);
        expect(answers.filter((r) => r.status === 429).length, probe).toBeGreaterThanOrEqual(6);
      }
    });
  });

  describe('per account, and per address without its port (5 a minute, behind a trusted proxy)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startApp(dialect, { env: { CORPDATA_RATE_LIMIT: '5/min', CORPDATA_TRUST_PROXY: '127.0.0.1' } });
    });
    afterAll(() => t.close());
    afterEach(() => t.expectLedgersBalance());

    it('all the keys of one account share one bucket: the 6th call answers 429 whatever key makes it', async () => {
      const a = await t.account({ credits: 100 });
      const more = await Promise.all(
        Array.from({ length: 9 }, (_, i) =>
          createKey(t.db.kysely, { accountId: a.accountId, name: `spare ${i}`, secret: TEST_SECRET, now: new Date() }),
        ),
      );
      const keys = [a.key, ...more.map((k) => k.api_key)];
      for (const key of keys.slice(0, 5)) expect((await t.get(SEARCH, key)).status).toBe(200);
      for (const key of keys) {
        const refused = await t.get(SEARCH, key);
        expect(refused.status).toBe(429);
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(refused.cost).toBeNull();
        expectLimitHeaders(refused, 5, 60);
      }
      // Five searches charged, the refusals nothing.
      const balance = await t.db.kysely
        .selectFrom('accounts')
        .select('balance')
        .where('account_id', '=', a.accountId)
        .executeTakeFirst();
      expect(Number(balance?.balance)).toBe(95);
      // Another account is not slowed.
      const b = await t.account();
      expect((await t.get(SEARCH, b.key)).status).toBe(200);
    });

    it('X-Forwarded-For with a port counts as the bare address: ports do not make fresh buckets', async () => {
      // The attack: each port a fresh bucket. 12 requests from one IPv4 address, each with another port or none.
      const v4 = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          t.get('/api/v1/account', null, { 'x-forwarded-for': i % 3 === 0 ? '10.7.7.7' : `10.7.7.7:${1000 + i}` }),
        ),
      );
      expect(v4.filter((r) => r.status === 401).length, JSON.stringify(v4.map((r) => r.status))).toBeLessThanOrEqual(6);
      expect(v4.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(6);
      // The bare address shares that bucket; another address has its own.
      expect((await t.get('/api/v1/account', null, { 'x-forwarded-for': '10.7.7.7' })).status).toBe(429);
      expect((await t.get('/api/v1/account', null, { 'x-forwarded-for': '10.7.7.8:1000' })).status).toBe(401);
      // Bracketed IPv6 with a port, bracketed without one, and plain: one client.
      const spellings = (i: number) => [`[2001:db8:7::1]:${1000 + i}`, '[2001:db8:7::1]', '2001:db8:7::1'][i % 3] ?? '';
      const v6 = await Promise.all(
        Array.from({ length: 12 }, (_, i) => t.get('/api/v1/account', null, { 'x-forwarded-for': spellings(i) })),
      );
      expect(v6.filter((r) => r.status === 401).length, JSON.stringify(v6.map((r) => r.status))).toBeLessThanOrEqual(6);
      expect(v6.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(6);
      expect((await t.get('/api/v1/account', null, { 'x-forwarded-for': '2001:db8:7::2' })).status).toBe(429);
      expect((await t.get('/api/v1/account', null, { 'x-forwarded-for': '[2001:db8:8::1]:1000' })).status).toBe(401);
    });

    it("the console's company search is free but limited, and shares the account's bucket with its keys", async () => {
      const a = await t.account({ credits: 0, password: 'correct horse battery' });
      const client = new ConsoleClient(t.url);
      expect((await client.signIn(a.email, 'correct horse battery')).status).toBe(303);
      const first = await client.get('/account/companies?query=beta');
      expect(first.status).toBe(200);
      expect(first.text).toContain('Beta');
      for (let i = 0; i < 3; i++) expect((await client.get('/account/companies/results?query=be')).status).toBe(200);
      // The fifth request of the account is one of its API calls; the search after it is refused.
      expect((await t.get('/api/v1/account', a.key)).status).toBe(200);
      const refused = await client.get('/account/companies?query=alpha');
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(refused.headers.get('ratelimit-policy')).toBe('"default";q=5;w=60');
      expect(refused.headers.get('content-type')).toMatch(/^text\/html/);
      expect(refused.text).toMatch(/Too many requests: at most 5 per minute; retry in [0-9]+ s\./);
      expect(refused.text).not.toContain('Alpha');
      const fragment = await client.get('/account/companies/results?query=alpha');
      expect(fragment.status).toBe(429);
      expect(fragment.text).not.toContain('/account/companies/');
      expect((await t.get('/api/v1/account', a.key)).status).toBe(429);
      // Free all the same: nothing was charged.
      const rows = await t.db.kysely.selectFrom('ledger').select('amount').where('account_id', '=', a.accountId).execute();
      expect(rows.every((r) => Number(r.amount) >= 0)).toBe(true);
    });
  });

  it('on by default: 100 requests a second per account', async () => {
    const t = await startApp(dialect, { env: { CORPDATA_RATE_LIMIT: '' } });
    try {
      const a = await t.account();
      const first = await t.get('/api/v1/account', a.key);
      expectLimitHeaders(first, 100, 1);
      // Raw requests, as fast as they go: what passes is the burst of 100 plus the refill meanwhile,
      // so any server faster than 112 requests a second refuses some of these 1000.
      const started = performance.now();
      const burst = await Promise.all(
        Array.from({ length: 1000 }, () =>
          fetch(`${t.url}/api/v1/account`, { headers: { authorization: `Bearer ${a.key}` } }).then((r) => r.status),
        ),
      );
      const seconds = (performance.now() - started) / 1000;
      const passed = burst.filter((s) => s === 200).length;
      expect(passed + burst.filter((s) => s === 429).length).toBe(1000);
      expect(passed).toBeGreaterThanOrEqual(100);
      expect(passed).toBeLessThanOrEqual(100 + Math.ceil(100 * seconds));
      expect(passed, `${seconds} s`).toBeLessThan(1000);
    } finally {
      await t.close();
    }
  });

  it('N/min refills over the minute, and off sends no limit headers', async () => {
    const perMinute = await startApp(dialect, { env: { CORPDATA_RATE_LIMIT: '3/min' } });
    try {
      const a = await perMinute.account();
      for (let i = 0; i < 3; i++) expect((await perMinute.get('/api/v1/account', a.key)).status).toBe(200);
      const refused = await perMinute.get('/api/v1/account', a.key);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(19);
      expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(20);
      expectLimitHeaders(refused, 3, 60);
    } finally {
      await perMinute.close();
    }
    const off = await startApp(dialect, { env: { CORPDATA_RATE_LIMIT: 'off' } });
    try {
      const a = await off.account();
      const res = await off.get('/api/v1/account', a.key);
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-policy')).toBeNull();
    } finally {
      await off.close();
    }
  });
});
