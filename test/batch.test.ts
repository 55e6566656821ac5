import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TEST_TOKEN } from '../src/auth/test-token.js';
import { dialects } from './support/dialects.js';
import { ALPHA, BETA, ZETA } from './support/fixture.js';
import { startApp, type TestApp } from './support/test-app.js';

interface Result {
  status: number;
  data?: { reporting_period: number; company_id: string }[];
  detail?: string;
  available_periods?: number[];
}

const PROBLEM = { accept: 'application/problem+json' };
const BATCH = '/api/v1/revenues/batch';

describe.each(dialects())('dataset batch (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(dialect);
  });
  afterAll(() => t.close());
  afterEach(() => t.expectLedgersBalance());

  const charges = (accountId: string) =>
    t.db.kysely
      .selectFrom('ledger')
      .select(['amount', 'endpoint', 'company_id', 'reporting_period'])
      .where('account_id', '=', accountId)
      .where('kind', '=', 'charge')
      .orderBy('entry_id')
      .execute();

  it('answers one result per job in order, each billed as its single call (a repeat in the batch costs 1)', async () => {
    const a = await t.account({ credits: 1000 });
    const res = await t.post(
      BATCH,
      {
        jobs: [
          { ticker: 'BETA', reporting_period: 2023 },
          { company_id: ZETA.id, reporting_period: 2022 },
          { ticker: 'NOPE', reporting_period: -1 },
          { isin: BETA.isin, reporting_period: 2023 },
          { lei: ALPHA.lei, reporting_period: -1 },
          { ticker: 'BETA', reporting_period: 2021 },
        ],
      },
      a.key,
    );
    expect(res.status).toBe(200);
    const { results } = res.json<{ results: Result[] }>();
    expect(results.map((r) => r.status)).toEqual([200, 204, 404, 200, 200, 404]);
    const single = await t.get('/api/v1/revenues?ticker=BETA&reporting_period=2023', a.key);
    expect(results[0]?.data).toEqual(single.json());
    expect(results[1]?.data).toEqual([]);
    expect(results[2]?.detail).toContain('No company matches the given ticker');
    expect(results[4]?.data?.[0]).toMatchObject({ company_id: ALPHA.id, reporting_period: 2023 });
    expect(results[5]?.available_periods).toEqual([2024, 2023, 2022]);
    expect([res.cost, res.balance]).toEqual([25 + 1 + 1 + 25, 1000 - 52]);
    const lines = await charges(a.accountId);
    expect(lines.slice(0, 4).map((l) => [Number(l.amount), l.endpoint, l.company_id, Number(l.reporting_period)])).toEqual([
      [-25, 'revenues/batch', BETA.id, 2023],
      [-1, 'revenues/batch', ZETA.id, 2022],
      [-1, 'revenues/batch', BETA.id, 2023],
      [-25, 'revenues/batch', ALPHA.id, 2023],
    ]);
    expect(single.cost).toBe(1);
  });

  it('refuses the whole batch with 402 when the balance does not cover the jobs that would be charged, charging nothing', async () => {
    const a = await t.account({ credits: 49 });
    const jobs = [
      { ticker: 'BETA', reporting_period: 2023 },
      { ticker: 'NOPE', reporting_period: 2023 },
      { ticker: 'BETA', reporting_period: 2024 },
    ];
    const res = await t.post(BATCH, { jobs }, a.key, PROBLEM);
    expect(res.status).toBe(402);
    expect([res.cost, res.balance]).toEqual([50, 49]);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(await charges(a.accountId)).toEqual([]);
    expect(
      await t.db.kysely.selectFrom('purchases').select('company_id').where('account_id', '=', a.accountId).execute(),
    ).toEqual([]);
    // Without the job it cannot afford, the rest passes.
    const ok = await t.post(BATCH, { jobs: jobs.slice(0, 2) }, a.key);
    expect([ok.status, ok.cost, ok.balance]).toEqual([200, 25, 24]);
  });

  it('takes years from 2000, before the single call’s 2020: a year not covered is the job’s 404, charging nothing', async () => {
    const a = await t.account({ credits: 10 });
    const res = await t.post(
      BATCH,
      {
        jobs: [
          { ticker: 'BETA', reporting_period: 2000 },
          { ticker: 'BETA', reporting_period: 2019 },
        ],
      },
      a.key,
    );
    expect([res.status, res.cost, res.balance]).toEqual([200, 0, 10]);
    const results = res.json<{ results: { status: number; available_periods?: number[] }[] }>().results;
    expect(results.map((r) => [r.status, r.available_periods])).toEqual([
      [404, [2024, 2023, 2022]],
      [404, [2024, 2023, 2022]],
    ]);
    expect(await charges(a.accountId)).toEqual([]);
  });

  it('charges nothing for a batch of jobs that all find nothing', async () => {
    const a = await t.account({ credits: 10 });
    const res = await t.post(BATCH, { jobs: [{ ticker: 'NOPE', reporting_period: 2023 }] }, a.key);
    expect([res.status, res.cost, res.balance]).toEqual([200, 0, 10]);
    expect(await charges(a.accountId)).toEqual([]);
  });

  it.each([
    [{ jobs: Array.from({ length: 101 }, () => ({ ticker: 'BETA', reporting_period: 2023 })) }, 'jobs'],
    [{ jobs: [] }, 'jobs'],
    [{}, 'jobs'],
    [[], 'body'],
    [{ jobs: [{ ticker: 'BETA', reporting_period: 2023 }], extra: 1 }, 'extra'],
    [{ jobs: [{ ticker: 'BETA', reporting_period: 2023 }, { ticker: 'BETA' }] }, 'jobs[1].reporting_period'],
    [
      {
        jobs: [
          { ticker: 'BETA', reporting_period: 2023 },
          { ticker: 'BETA', reporting_period: '2023' },
        ],
      },
      'jobs[1].reporting_period',
    ],
    [{ jobs: [{ ticker: 'BETA', reporting_period: 1999 }] }, 'jobs[0].reporting_period'],
    [{ jobs: [{ ticker: 'BETA', reporting_period: 2027 }] }, 'jobs[0].reporting_period'],
    [
      {
        jobs: [
          { ticker: 'A', reporting_period: 2023 },
          { ticker: 'B', reporting_period: 2023 },
          { isin: 'XX', reporting_period: 2023 },
        ],
      },
      'jobs[2].isin',
    ],
    [{ jobs: [{ ticker: 'BETA', reporting_year: 2023, reporting_period: 2023 }] }, 'jobs[0].reporting_year'],
    [{ jobs: [{ ticker: 'BETA', mic_code: 'ZZZZ', reporting_period: 2023 }] }, 'jobs[0].mic_code'],
    [
      {
        jobs: [
          { ticker: 'BETA', reporting_period: 2023 },
          { mic_code: 'XNYS', reporting_period: 2023 },
        ],
      },
      'jobs[1]',
    ],
    [{ jobs: [{ company_id: 'not-a-uuid', reporting_period: 2023 }] }, 'jobs[0].company_id'],
    ['{"jobs": [', 'body'],
  ])('refuses a malformed body with a 400 naming the job and field (case %#)', async (body, param) => {
    const a = await t.account();
    const res = await t.post(BATCH, body, a.key, PROBLEM);
    expect(res.status).toBe(400);
    expect(res.json<{ param: string }>().param).toBe(param);
    expect(res.json<{ detail: string }>().detail).toContain(param === 'body' ? '' : param);
    const plain = await t.post(BATCH, body, a.key);
    expect(plain.headers.get('content-type')).toContain('text/plain');
    expect(plain.text).toContain(param === 'body' ? 'body' : param);
    expect(await charges(a.accountId)).toEqual([]);
  });

  it('answers POST only, reads JSON only, refuses query parameters, and checks the key first', async () => {
    const a = await t.account({ subscription: 'none', credits: 30 });
    const body = { jobs: [{ ticker: 'BETA', reporting_period: 2023 }] };
    expect((await t.post(BATCH, body)).status).toBe(401);
    expect((await t.post(BATCH, '{', null)).status).toBe(401);
    const text = await t.post(BATCH, 'jobs', a.key, { 'content-type': 'text/plain' });
    expect(text.status).toBe(415);
    const forbidden = await t.post(BATCH, body, a.key, PROBLEM);
    expect([forbidden.status, forbidden.cost, forbidden.balance]).toEqual([403, 25, 30]);
    expect(forbidden.json<{ required_subscription: string }>().required_subscription).toBe('revenues');
    expect((await t.post(`${BATCH}?x=1`, body, a.key)).status).toBe(400);
    const get = await t.get(BATCH, a.key);
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
    const post = await t.post('/api/v1/revenues', body, a.key);
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET']);
    const big = await t.post(BATCH, { jobs: [{ ticker: 'BETA', reporting_period: 2023, isin: 'x'.repeat(70_000) }] }, a.key);
    expect(big.status).toBe(413);
    // Every refusal of the new paths also comes as problem details, when asked for.
    for (const [res, status] of [
      [await t.post(BATCH, 'jobs', a.key, { 'content-type': 'text/plain', ...PROBLEM }), 415],
      [
        await t.post(BATCH, { jobs: [{ ticker: 'BETA', reporting_period: 2023, isin: 'x'.repeat(70_000) }] }, a.key, PROBLEM),
        413,
      ],
      [await t.post(BATCH, body, null, PROBLEM), 401],
      [await t.get(BATCH, a.key, PROBLEM), 405],
    ] as const) {
      expect(res.status).toBe(status);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.json<{ status: number }>().status).toBe(status);
    }
  });

  it('two concurrent batches buying the same company-periods charge each first access once', async () => {
    const a = await t.account({ credits: 10_000 });
    const jobs = [
      { ticker: 'BETA', reporting_period: 2023 },
      { ticker: 'BETA', reporting_period: 2024 },
      { ticker: 'ALPH', reporting_period: 2022 },
    ];
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        i % 2 === 0
          ? t.post(BATCH, { jobs: i % 4 === 0 ? jobs : [...jobs].reverse() }, a.key)
          : t.get('/api/v1/revenues/history?ticker=BETA&from=2023', a.key),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(8).fill(200));
    const spent = answers.reduce((sum, r) => sum + (r.cost ?? 0), 0);
    // Three company-periods bought once each (75), every other part a repeat (4 × 3 + 4 × 2 - 3 = 17).
    expect(spent).toBe(75 + 17);
    const lines = await charges(a.accountId);
    expect(lines.filter((l) => Number(l.amount) === -25)).toHaveLength(3);
    const balance = await t.db.kysely
      .selectFrom('accounts')
      .select('balance')
      .where('account_id', '=', a.accountId)
      .executeTakeFirst();
    expect(Number(balance?.balance)).toBe(10_000 - spent);
  });

  it('two concurrent batches the balance covers only one of: one is charged whole, the other refused whole', async () => {
    const a = await t.account({ credits: 60 });
    const jobs = [
      { ticker: 'BETA', reporting_period: 2023 },
      { ticker: 'BETA', reporting_period: 2024 },
    ];
    const answers = await Promise.all([t.post(BATCH, { jobs }, a.key), t.post(BATCH, { jobs: [jobs[1], jobs[0]] }, a.key)]);
    const statuses = answers.map((r) => r.status).sort();
    // The second comes after the first bought both: two repeats (2 credits) fit in the 10 left.
    expect(statuses).toEqual([200, 200]);
    expect(answers.map((r) => r.cost).sort()).toEqual([2, 50]);
    const poor = await t.account({ credits: 30 });
    const racing = await Promise.all([
      t.post(BATCH, { jobs: [jobs[0]] }, poor.key),
      t.post(BATCH, { jobs: [{ ticker: 'ALPH', reporting_period: 2022 }] }, poor.key),
    ]);
    expect(racing.map((r) => r.status).sort()).toEqual([200, 402]);
    expect((await charges(poor.accountId)).map((l) => Number(l.amount))).toEqual([-25]);
  });

  it('under a storm of single calls, histories and batches on a tight balance: each first access once, the ledger the balance', async () => {
    const a = await t.account({ credits: 140 });
    const calls = Array.from({ length: 30 }, (_, i) => {
      if (i % 3 === 0) return t.get(`/api/v1/revenues?ticker=${i % 2 === 0 ? 'BETA' : 'ALPH'}&reporting_period=2023`, a.key);
      if (i % 3 === 1) return t.get('/api/v1/revenues/history?ticker=BETA&last=3', a.key);
      return t.post(
        BATCH,
        {
          jobs: [
            { ticker: 'ALPH', reporting_period: 2022 },
            { ticker: 'BETA', reporting_period: 2024 },
          ],
        },
        a.key,
      );
    });
    const answers = await Promise.all(calls);
    for (const r of answers) expect([200, 402]).toContain(r.status);
    const paid = answers.filter((r) => r.status === 200).reduce((sum, r) => sum + (r.cost ?? 0), 0);
    const lines = await charges(a.accountId);
    expect(lines.reduce((sum, l) => sum - Number(l.amount), 0)).toBe(paid);
    const firsts = lines.filter((l) => Number(l.amount) === -25).map((l) => `${l.company_id}/${l.reporting_period}`);
    expect(new Set(firsts).size).toBe(firsts.length);
    const balance = await t.db.kysely
      .selectFrom('accounts')
      .select('balance')
      .where('account_id', '=', a.accountId)
      .executeTakeFirst();
    expect(Number(balance?.balance)).toBe(140 - paid);
    expect(Number(balance?.balance)).toBeGreaterThanOrEqual(0);
  });

  it('answers the test token per job with mock data and the magic tickers, for free', async () => {
    const res = await t.post(
      '/api/v1/ghg-emissions/batch',
      {
        jobs: [
          { ticker: 'ANY', reporting_period: -1 },
          { ticker: 'MOCK204', reporting_period: -1 },
          { ticker: 'MOCK404', reporting_period: 2023 },
        ],
      },
      TEST_TOKEN,
    );
    expect([res.status, res.cost, res.balance, res.headers.get('x-test-mode')]).toEqual([200, 0, 0, 'true']);
    const { results } = res.json<{ results: Result[] }>();
    expect(results.map((r) => r.status)).toEqual([200, 204, 404]);
    expect(results[0]?.data?.length).toBeGreaterThan(0);
    const short = await t.post(
      BATCH,
      {
        jobs: [
          { ticker: 'ANY', reporting_period: -1 },
          { ticker: 'MOCK402', reporting_period: -1 },
        ],
      },
      TEST_TOKEN,
    );
    expect([short.status, short.cost, short.balance]).toEqual([402, 50, 0]);
    const forbidden = await t.post(BATCH, { jobs: [{ ticker: 'MOCK403', reporting_period: -1 }] }, TEST_TOKEN);
    expect([forbidden.status, forbidden.headers.get('x-test-mode')]).toEqual([403, 'true']);
  });
});
