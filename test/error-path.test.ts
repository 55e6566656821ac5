import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from './support/dialects.js';
import { closed, openSocket, type RawResponse, rawRequest } from './support/raw-http.js';
import { startApp, TEST_SECRET, type TestApp } from './support/test-app.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Every refusal has the same form: plain text, one sentence, an id, nosniff, nothing internal or echoed. */
function expectPlainError(res: RawResponse, status: number, label: string): void {
  expect(res.status, `${label}: ${res.raw.slice(0, 300)}`).toBe(status);
  expect(res.headers.get('content-type'), label).toMatch(/^text\/plain/);
  expect(res.headers.get('x-request-id'), label).toMatch(UUID);
  expect(res.headers.get('x-content-type-options'), label).toBe('nosniff');
  expect(res.body, label).not.toMatch(/FST_|HPE_|ERR_|"error"|\{/);
  expect(res.body, label).toMatch(/^[^\n]+\.$/);
  expect(res.body, label).toMatch(/^[\x20-\x7e]+$/);
}

/** An HS256 JWT with any header, signed with the test secret (jose refuses to sign a `crit` it does not know). */
function signed(header: object, payload: object): string {
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${createHmac('sha256', TEST_SECRET).update(input).digest('base64url')}`;
}

describe.each(dialects())('one error path (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(dialect);
  });
  afterAll(() => t.close());
  afterEach(() => t.expectLedgersBalance());

  const get = (target: string, headers = 'Host: x\r\n') => `GET ${target} HTTP/1.1\r\n${headers}Connection: close\r\n\r\n`;

  it('answers what the HTTP parser refuses in plain text, with an id and nosniff, on the raw socket', async () => {
    const cases: Array<[string, string, number]> = [
      ['NUL byte in a header', get('/api/v1/companies/list', 'Host: x\r\nX-A: a\x00b\r\n'), 400],
      ['obs-fold', get('/api/v1/companies/list', 'Host: x\r\nX-A: a\r\n  folded\r\n'), 400],
      ['bare LF', 'GET / HTTP/1.1\nHost: x\n\n', 400],
      [
        'Content-Length and Transfer-Encoding together (smuggling)',
        'POST /account/sign-in HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
        400,
      ],
      [
        'two Content-Lengths',
        'POST /account/sign-in HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
        400,
      ],
      // With a content type the route accepts, so that the route waits for the body the parser refuses.
      [
        'bad chunk size',
        'POST /account/sign-in HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n' +
          'Transfer-Encoding: chunked\r\n\r\nzz\r\n',
        400,
      ],
      ['header block too large', get('/', `Host: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n`), 431],
      ['not HTTP at all', '\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n', 400],
      ['space in the request target', 'GET /a b HTTP/1.1\r\nHost: x\r\n\r\n', 400],
    ];
    for (const [label, bytes, status] of cases) expectPlainError(await rawRequest(t.url, bytes), status, label);
  });

  it('answers what Node itself would refuse in the same form: no Host, an unknown Expect, CONNECT', async () => {
    for (const target of ['/api/v1/account', '/', '/trace/00000000-0000-4000-8000-00000000dead']) {
      const noHost = await rawRequest(t.url, `GET ${target} HTTP/1.1\r\nConnection: keep-alive\r\n\r\n`);
      expectPlainError(noHost, 400, `no Host on ${target}`);
      expect(noHost.body).toContain("header 'Host' is missing");
      expect(noHost.headers.get('connection')).toBe('close');
    }
    // HTTP/1.0 needs no Host.
    expect((await rawRequest(t.url, 'GET /healthz HTTP/1.0\r\n\r\n')).status).toBe(200);
    const expectation = await rawRequest(t.url, 'GET /api/v1/account HTTP/1.1\r\nHost: x\r\nExpect: foo\r\n\r\n');
    expectPlainError(expectation, 417, 'Expect: foo');
    expect(expectation.headers.get('connection')).toBe('close');
    const socket = await openSocket(t.url);
    const ended = closed(socket);
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: foo\r\n\r\n');
    const { received } = await ended;
    expect(received).toMatch(/^HTTP\/1\.1 417 /);
    const connect = await rawRequest(t.url, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expectPlainError(connect, 405, 'CONNECT');
    expect(connect.headers.get('allow')).toBe('GET');
  });

  it('answers the framework’s own refusals in the same form, without its codes', async () => {
    expectPlainError(await rawRequest(t.url, get(`/trace/${'a'.repeat(500)}`)), 414, 'long path parameter');
    expectPlainError(await rawRequest(t.url, get('/trace/%E0%A4%A')), 400, 'bad percent-encoding in a parameter');
    const json = await rawRequest(
      t.url,
      'POST /account/sign-in HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-evil\x1b[31m\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}',
    );
    expect(json.status).toBeGreaterThanOrEqual(400);
    expect(json.status).toBeLessThan(500);
    expect(json.body).not.toContain('evil');
    expect(json.headers.get('x-request-id')).toMatch(UUID);
  });

  it('never echoes the path or control characters on a 404 or an unknown parameter', async () => {
    const notFound = await rawRequest(t.url, get('/zzpath/%1B[31m%0D%0Aroute?x=%1B[31m'));
    expectPlainError(notFound, 404, '404');
    expect(notFound.body).not.toContain('zzpath');
    const { key } = await t.account();
    const unknown = await t.get('/api/v1/companies/search?query=beta&%1B%5B31mevil%0D%0A=1', key);
    expect(unknown.status).toBe(400);
    expect(unknown.text).toMatch(/^Unknown parameter '\?\[31mevil\?\?'\.$/);
    expect(unknown.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('refuses a malformed percent-encoding in the query with 400 naming the parameter, charging nothing', async () => {
    const { key } = await t.account({ credits: 100 });
    for (const [path, name] of [
      ['/api/v1/companies/search?query=%E0%A4%A', 'query'],
      ['/api/v1/companies/search?query=%ZZabc', 'query'],
      ['/api/v1/revenues?ticker=MSF%T&reporting_period=2023', 'ticker'],
      ['/api/v1/revenues?ticker=BETA&reporting_period=2023&x%FF=1', 'x%FF'],
    ] as const) {
      const res = await t.get(path, key);
      expect([res.status, res.cost], path).toEqual([400, null]);
      expect(res.text).toBe(`Invalid parameter '${name}': its percent-encoding is malformed.`);
    }
    expect((await t.get('/api/v1/account', key)).json()).toMatchObject({ balance: 100 });
  });

  it('names the parameter, never its value, when no company matches (a 404 echoes no input)', async () => {
    const { key } = await t.account({ credits: 100 });
    for (const path of [
      '/api/v1/revenues?ticker=%1B%5B31mEVIL%0D%0AX&reporting_period=2023',
      '/api/v1/revenues?ticker=%3Cscript%3E&mic_code=XETR&reporting_period=2023',
      '/api/v1/ghg-emissions?ticker=%1B%5B31mEVIL&reporting_period=2023',
      '/api/v1/revenues/periods?ticker=%1B%5B31mEVIL%0D%0A',
    ]) {
      const res = await t.get(path, key);
      expect(res.status, path).toBe(404);
      expect(res.text, path).toMatch(/^No company matches the given ticker( on the given mic_code)?\.$/);
      expect(res.text).not.toMatch(/EVIL|script/); // and, by the sentence above, no control character
    }
  });

  it('refuses two Authorization headers with 400, whichever comes first', async () => {
    const { key } = await t.account();
    for (const [a, b] of [
      [key, key],
      [key, 'garbage'],
      ['garbage', key],
    ]) {
      const res = await rawRequest(
        t.url,
        get('/api/v1/companies/list', `Host: x\r\nAuthorization: Bearer ${a}\r\nauthorization: Bearer ${b}\r\n`),
      );
      expectPlainError(res, 400, 'duplicate Authorization');
      expect(res.body).toContain('Authorization');
      expect(res.body).not.toContain(key);
    }
  });

  it('accepts reporting_period only as a plain integer, naming the parameter otherwise', async () => {
    const { key } = await t.account({ credits: 1000 });
    for (const bad of ['02022', '-01', '+1', '1e3', ' 2022', '2022 ', '2022.0', '0x7e6', '-0', '0', '--1', '2022%00', '１']) {
      const res = await t.get(`/api/v1/revenues?ticker=BETA&reporting_period=${encodeURIComponent(bad)}`, key);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.text).toMatch(/^Invalid parameter 'reporting_period'/);
    }
    expect((await t.get('/api/v1/revenues?ticker=BETA&reporting_period=2023', key)).status).toBe(200);
    expect((await t.get('/api/v1/revenues?ticker=BETA&reporting_period=-1', key)).status).toBe(200);
  });

  it('property: a reporting_period string is accepted exactly when it is a plain integer in range', async () => {
    const { key } = await t.account({ credits: 0 });
    const plain = /^-?[1-9][0-9]*$/;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.integer({ min: -10, max: 2030 }).map(String),
          fc.stringMatching(/^[-+ 0]{0,2}[0-9]{1,5}(e[0-9])?$/),
          fc.string({ maxLength: 6 }),
        ),
        async (value) => {
          const res = await t.get(`/api/v1/revenues?ticker=BETA&reporting_period=${encodeURIComponent(value)}`, key);
          const n = Number(value);
          const valid = plain.test(value) && ((n >= 2020 && n <= 2026) || (n >= -6 && n <= -1));
          // A valid period passes validation (402 without credits, or 404 for a period not covered).
          expect(res.status !== 400, `${JSON.stringify(value)}: ${res.status}`).toBe(valid);
          if (!valid && value !== '') expect(res.text).toContain("'reporting_period'");
        },
      ),
      { numRuns: 150 },
    );
  });

  it('says why a key with a future nbf or an unknown crit header is refused', async () => {
    const { accountId, keyId } = await t.account();
    const now = Math.floor(Date.now() / 1000);
    const future = signed({ alg: 'HS256', typ: 'JWT' }, { sub: accountId, jti: keyId, iat: now, nbf: now + 3600 });
    const crit = signed({ alg: 'HS256', crit: ['x-corp'], 'x-corp': 1 }, { sub: accountId, jti: keyId, iat: now });
    for (const path of ['/api/v1/companies/list', '/api/v1/revenues?ticker=BETA&reporting_period=2023']) {
      const a = await t.get(path, future);
      expect(a.status).toBe(401);
      expect(a.text).toMatch(/not yet valid/);
      const b = await t.get(path, crit);
      expect(b.status).toBe(401);
      expect(b.text).toMatch(/critical header/);
      expect(b.text).not.toContain(crit);
    }
  });

  it('answers 503 in the same form to a request that arrives on an open connection during shutdown', async () => {
    const own = await startApp(dialect, { bundle: null });
    const socket = await openSocket(own.url);
    const done = closed(socket);
    // A request still being received keeps its connection open while the app closes.
    socket.write(
      'POST /account/sign-in HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 20\r\n\r\n0123456789',
    );
    await new Promise((r) => setTimeout(r, 100));
    const closing = own.app.close();
    await new Promise((r) => setTimeout(r, 100));
    socket.write('0123456789GET /api/v1/companies/list HTTP/1.1\r\nHost: x\r\n\r\n');
    const { received } = await done;
    await closing;
    const second = received.slice(received.indexOf('HTTP/1.1', 1));
    expect(received).toMatch(/^HTTP\/1\.1 403 /);
    expect(second).toMatch(/^HTTP\/1\.1 503 /);
    expect(second).toMatch(/content-type: text\/plain/i);
    expect(second).toMatch(/x-request-id: [0-9a-f-]{36}/i);
    expect(second).toMatch(/x-content-type-options: nosniff/i);
    expect(second).toMatch(/\r\n\r\nService unavailable: this instance is shutting down; retry the request\.$/);
    await own.close();
  });
});
