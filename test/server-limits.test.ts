import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { dialects } from './support/dialects.js';
import { closed, openSocket, rawRequest } from './support/raw-http.js';
import { startApp, type TestApp } from './support/test-app.js';

const TIMEOUT_MS = 1500;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('timeouts and limits: defaults (design §6)', () => {
  it('are 30 s for a request, 72 s keep-alive, 10,000 connections, 16 KiB console forms', () => {
    const c = loadConfig({});
    expect([c.requestTimeoutMs, c.keepAliveTimeoutMs, c.maxConnections, c.formBodyLimitBytes]).toEqual([
      30_000, 72_000, 10_000, 16_384,
    ]);
  });

  it('refuses values that are not whole numbers in range, naming the variable', () => {
    expect(() => loadConfig({ CORPDATA_REQUEST_TIMEOUT_MS: '0' })).toThrow(/CORPDATA_REQUEST_TIMEOUT_MS/);
    expect(() => loadConfig({ CORPDATA_KEEP_ALIVE_TIMEOUT_MS: '1s' })).toThrow(/CORPDATA_KEEP_ALIVE_TIMEOUT_MS/);
    expect(() => loadConfig({ CORPDATA_MAX_CONNECTIONS: '-1' })).toThrow(/CORPDATA_MAX_CONNECTIONS/);
    expect(() => loadConfig({ CORPDATA_FORM_BODY_LIMIT_BYTES: '10' })).toThrow(/CORPDATA_FORM_BODY_LIMIT_BYTES/);
  });
});

describe.each(dialects())('timeouts and limits (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(dialect, { env: { CORPDATA_REQUEST_TIMEOUT_MS: String(TIMEOUT_MS), CORPDATA_MAX_CONNECTIONS: '4' } });
  });
  afterAll(() => t.close());

  it('closes a body sent one byte a second after the request timeout, serving others meanwhile', async () => {
    const slow = await openSocket(t.url);
    const done = closed(slow);
    slow.write('POST /account/sign-in HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n');
    slow.write('Content-Length: 16000\r\n\r\n');
    const drip = setInterval(() => {
      if (!slow.destroyed) slow.write('a');
    }, 1000);
    try {
      const { key } = await t.account();
      for (let i = 0; i < 3; i += 1) {
        expect((await t.get('/api/v1/companies/search?query=beta', key)).status).toBe(200);
        await sleep(200);
      }
      const { afterMs, received } = await done;
      expect(afterMs).toBeLessThan(TIMEOUT_MS + 2500);
      expect(received).toMatch(/^HTTP\/1\.1 408 /);
      expect(received).toMatch(/X-Request-Id: [0-9a-f-]{36}/);
      expect(received).toContain('X-Content-Type-Options: nosniff');
      expect(received).toMatch(/Request timeout/);
    } finally {
      clearInterval(drip);
      slow.destroy();
    }
    expect((await t.get('/api/v1/companies/search?query=beta', (await t.account()).key)).status).toBe(200);
  });

  it('closes headers that trickle in slower than the request timeout', async () => {
    const slow = await openSocket(t.url);
    const done = closed(slow);
    slow.write('GET / HTTP/1.1\r\n');
    const drip = setInterval(() => {
      if (!slow.destroyed) slow.write('X-A: b\r\n');
    }, 500);
    try {
      const { afterMs, received } = await done;
      expect(afterMs).toBeLessThan(TIMEOUT_MS + 2500);
      expect(received).toMatch(/^HTTP\/1\.1 408 /);
    } finally {
      clearInterval(drip);
      slow.destroy();
    }
  });

  it('refuses a connection over the cap while the open ones are still served', async () => {
    // An app of its own, reached only by these raw connections (a pooled client would hold some).
    const capped = await startApp(dialect, { bundle: null, env: { CORPDATA_MAX_CONNECTIONS: '4' } });
    const sockets = await Promise.all([1, 2, 3, 4].map(() => openSocket(capped.url)));
    const [inUse] = sockets;
    if (inUse === undefined) throw new Error('no socket');
    const answer = () => new Promise<string>((resolve) => inUse.once('data', (d) => resolve(String(d))));
    const keepAlive = 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n';
    try {
      let reply = answer();
      inUse.write(keepAlive);
      expect(await reply).toMatch(/^HTTP\/1\.1 200 /);
      const extra = await openSocket(capped.url).catch(() => null);
      if (extra !== null) {
        extra.write(keepAlive);
        const { received } = await closed(extra);
        expect(received).toBe('');
      }
      reply = answer();
      inUse.write(keepAlive);
      expect(await reply).toMatch(/^HTTP\/1\.1 200 /);
    } finally {
      for (const s of sockets) s.destroy();
    }
    await sleep(100);
    expect((await rawRequest(capped.url, 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).status).toBe(200);
    await capped.close();
  });

  it('refuses a console form body over 16 KiB with 413, naming no internal code', async () => {
    const body = `email=a%40example.com&password=${'x'.repeat(17 * 1024)}`;
    const res = await rawRequest(
      t.url,
      `POST /account/sign-in HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(res.status).toBe(413);
    expect(res.body).not.toMatch(/FST_/);
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
