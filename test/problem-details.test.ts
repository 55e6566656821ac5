import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TEST_TOKEN } from '../src/auth/test-token.js';
import { type Problem, ProblemSchema, wantsProblem } from '../src/http/problem.js';
import type { Response } from './support/api-client.js';
import { dialects } from './support/dialects.js';
import { ALPHA, BETA } from './support/fixture.js';
import { rawRequest } from './support/raw-http.js';
import { startApp, type TestApp } from './support/test-app.js';

const ajv = new Ajv({ strict: false });
addFormats.default(ajv);
const validProblem = ajv.compile(ProblemSchema);
const PROBLEM = { accept: 'application/problem+json' };

/** The answer is RFC 9457 problem details of `status`, about this very request. */
function expectProblem(res: Response, status: number, label: string): Problem {
  expect(res.status, `${label}: ${res.text.slice(0, 300)}`).toBe(status);
  expect(res.headers.get('content-type'), label).toMatch(/^application\/problem\+json/);
  const body = res.json<Problem>();
  expect(validProblem(body), `${label}: ${JSON.stringify(validProblem.errors)}`).toBe(true);
  expect(body.status, label).toBe(status);
  expect(body.type, label).toBe(`/docs#error-${status}`);
  expect(body.instance, label).toBe(`urn:uuid:${res.headers.get('x-request-id')}`);
  expect(res.headers.get('vary') ?? '', label).toMatch(/accept/i);
  return body;
}

describe('which Accept headers ask for problem details', () => {
  it.each([
    ['application/problem+json', true],
    ['application/json', true],
    ['application/json, text/plain, */*', true],
    ['text/plain, application/json;q=0.5', false],
    ['*/*', false],
    ['text/html,application/xhtml+xml', false],
    ['application/json;q=0', false],
    // Media types and parameter names are case-insensitive (RFC 9110 §8.3.1, §12.4.2).
    ['APPLICATION/PROBLEM+JSON', true],
    ['Application/Json ; Q=0.9, text/plain;q=0.5', true],
    ['TEXT/PLAIN, APPLICATION/JSON;Q=0.5', false],
    [undefined, false],
  ])('%s → %s', (accept, problem) => {
    expect(wantsProblem(accept)).toBe(problem);
  });
});

describe.each(dialects())('errors as problem details on request (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(dialect);
  });
  afterAll(() => t.close());
  afterEach(() => t.expectLedgersBalance());

  it('every refusal of the API: the same status and sentence as the plain-text answer, plus what a program needs', async () => {
    const rich = await t.account();
    const poor = await t.account({ credits: 0 });
    const ghgOnly = await t.account({ subscriptions: ['ghg'] });
    const cases: Array<[string, string, string | null, number, Partial<Problem>]> = [
      ['unknown parameter', '/api/v1/revenues?ticker=BETA&reporting_year=2023', rich.key, 400, { param: 'reporting_year' }],
      ['bad period', '/api/v1/revenues?ticker=BETA&reporting_period=1999', rich.key, 400, { param: 'reporting_period' }],
      ['plain-integer rule', '/api/v1/revenues?ticker=BETA&reporting_period=02022', rich.key, 400, { param: 'reporting_period' }],
      ['given twice', '/api/v1/revenues?ticker=BETA&ticker=ALPH&reporting_period=2023', rich.key, 400, { param: 'ticker' }],
      ['empty value', '/api/v1/revenues?ticker=&reporting_period=2023', rich.key, 400, { param: 'ticker' }],
      ['malformed encoding', '/api/v1/revenues?ticker=%E0%A4%A&reporting_period=2023', rich.key, 400, { param: 'ticker' }],
      ['bad mic_code', '/api/v1/revenues?ticker=BETA&mic_code=NOPE&reporting_period=2023', rich.key, 400, { param: 'mic_code' }],
      ['no identifier', '/api/v1/revenues?reporting_period=2023', rich.key, 400, {}],
      ['no key', '/api/v1/revenues?ticker=BETA&reporting_period=2023', null, 401, {}],
      ['bad key', '/api/v1/account', 'a.b.c', 401, {}],
      ['no credits', '/api/v1/revenues?ticker=BETA&reporting_period=2023', poor.key, 402, {}],
      [
        'no subscription',
        '/api/v1/revenues?ticker=BETA&reporting_period=2023',
        ghgOnly.key,
        403,
        { required_subscription: 'revenues' },
      ],
      [
        'periods, no subscription',
        '/api/v1/revenues/periods?ticker=BETA',
        ghgOnly.key,
        403,
        { required_subscription: 'revenues' },
      ],
      [
        'period not covered',
        '/api/v1/revenues?ticker=BETA&reporting_period=2020',
        rich.key,
        404,
        { available_periods: [2024, 2023, 2022] },
      ],
      [
        'offset not covered',
        '/api/v1/revenues?ticker=BETA&reporting_period=-6',
        rich.key,
        404,
        { available_periods: [2024, 2023, 2022] },
      ],
      ['unknown trace id', '/api/v1/trace/00000000-0000-4000-8000-00000000ffff', rich.key, 404, {}],
      ['no such route', '/api/v1/nothing-here', rich.key, 404, {}],
      ['bad trace id', '/api/v1/trace/not-an-id', rich.key, 400, { param: 'id' }],
    ];
    for (const [label, path, key, status, extensions] of cases) {
      const plain = await t.get(path, key);
      const problem = await t.get(path, key, PROBLEM);
      expect(plain.status, label).toBe(status);
      expect(plain.headers.get('content-type') ?? 'text/plain', label).toMatch(/^text\/plain/);
      const body = expectProblem(problem, status, label);
      // The sentence is the plain-text body (the spec's 403 has none: its detail says why).
      if (status !== 403) expect(body.detail, label).toBe(plain.text);
      else {
        expect(plain.text, label).toBe('');
        expect(body.detail, label).toBe(
          `Subscription required: this dataset needs the ${body.required_subscription} subscription.`,
        );
      }
      expect(body, label).toMatchObject(extensions);
      // The credit headers of 402 and 403 stay as they are.
      if (status === 402 || status === 403) expect([problem.cost, problem.balance], label).toEqual([plain.cost, plain.balance]);
    }
    // With application/json the same.
    expectProblem(
      await t.get('/api/v1/revenues?ticker=BETA&reporting_year=2023', rich.key, { accept: 'application/json' }),
      400,
      'json',
    );
  });

  it('an unknown company: close listings to try, and whether a mic_code would help', async () => {
    const a = await t.account();
    const nearTicker = expectProblem(
      await t.get('/api/v1/revenues?ticker=BETAX&reporting_period=2023', a.key, PROBLEM),
      404,
      'near',
    );
    expect(nearTicker.did_you_mean?.map((c) => c.company_id)).toContain(BETA.id);
    const wrongMic = await t.get('/api/v1/revenues?ticker=BETA&mic_code=XLON&reporting_period=2023', a.key);
    expect(wrongMic.status).toBe(404);
    expect(wrongMic.text).toBe(
      'No company matches the given ticker on the given mic_code. The ticker is listed on XNYS: use that mic_code, or leave mic_code out.',
    );
    const wrongMicProblem = expectProblem(
      await t.get('/api/v1/revenues?ticker=BETA&mic_code=XLON&reporting_period=2023', a.key, PROBLEM),
      404,
      'wrong mic',
    );
    expect(wrongMicProblem.did_you_mean).toEqual([
      { company_id: BETA.id, company_name: 'Beta Corporation', ticker: 'BETA', mic_code: 'XNYS' },
    ]);
    // An exact identifier that matches nothing has nothing close to offer.
    const isin = expectProblem(
      await t.get('/api/v1/revenues?isin=US0000000000&reporting_period=2023', a.key, PROBLEM),
      404,
      'isin',
    );
    expect(isin.did_you_mean).toEqual([]);
    // The plain text names the periods that exist.
    const period = await t.get(`/api/v1/revenues?company_id=${ALPHA.id}&reporting_period=2020`, a.key);
    expect(period.text).toMatch(/Available periods: 2023, 2022 \(the free periods endpoint lists them\)\.$/);
  });

  it('reads the media types of Accept in any case: APPLICATION/PROBLEM+JSON gets problem details', async () => {
    const a = await t.account();
    for (const accept of ['APPLICATION/PROBLEM+JSON', 'Application/Problem+Json; Q=1', ' application/PROBLEM+json ']) {
      const body = expectProblem(await t.get('/api/v1/revenues?ticker=BETA&reporting_year=2023', a.key, { accept }), 400, accept);
      expect(body.param, accept).toBe('reporting_year');
    }
    expectProblem(await t.get('/api/v1/account', 'made.up.key', { accept: 'APPLICATION/JSON' }), 401, 'APPLICATION/JSON');
    // A plain-text preference, in capitals, keeps plain text.
    const plain = await t.get('/api/v1/account', 'made.up.key', { accept: 'TEXT/PLAIN, APPLICATION/PROBLEM+JSON;Q=0.5' });
    expect(plain.status).toBe(401);
    expect(plain.headers.get('content-type')).toMatch(/^text\/plain/);
  });

  it('the test token, the rate limit, the trace page asked for JSON, and what the framework refuses', async () => {
    expectProblem(await t.get('/api/v1/revenues?ticker=BETA&reporting_year=1', TEST_TOKEN, PROBLEM), 400, 'test token');
    // A trace page is asked for its JSON form with application/json; its refusals then come as problems.
    const JSON_ACCEPT = { accept: 'application/json' };
    expectProblem(await t.get(`/trace/00000000-0000-4000-8000-00000000ffff`, null, JSON_ACCEPT), 404, 'trace page');
    expectProblem(await t.get(`/trace/00000000-0000-4000-8000-00000000ffff`, 'x.y.z', JSON_ACCEPT), 401, 'trace page, bad key');
    const long = await rawRequest(
      t.url,
      `GET /trace/${'a'.repeat(500)} HTTP/1.1\r\nHost: x\r\nAccept: application/problem+json\r\nConnection: close\r\n\r\n`,
    );
    expect(long.status).toBe(414);
    expect(long.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(long.body)).toMatchObject({ status: 414, title: 'URI too long' });
    const limited = await startApp(dialect, { env: { CORPDATA_RATE_LIMIT: '1/min' } });
    try {
      const a = await limited.account();
      expect((await limited.get('/api/v1/account', a.key)).status).toBe(200);
      const refused = expectProblem(await limited.get('/api/v1/account', a.key, PROBLEM), 429, '429');
      expect(refused.detail).toMatch(/^Too many requests: at most 1 per minute; retry in [0-9]+ s\.$/);
    } finally {
      await limited.close();
    }
  });
});
