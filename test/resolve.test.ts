import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TEST_TOKEN } from '../src/auth/test-token.js';
import { dialects } from './support/dialects.js';
import { ALPHA, BETA, GAMMA } from './support/fixture.js';
import { startApp, type TestApp } from './support/test-app.js';

interface Result {
  status: number;
  data?: { company_id: string; company_name: string; ticker: string; mic_code: string };
  detail?: string;
}

const RESOLVE = '/api/v1/companies/resolve';
const PROBLEM = { accept: 'application/problem+json' };

describe.each(dialects())('company resolution (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(dialect);
  });
  afterAll(() => t.close());
  afterEach(() => t.expectLedgersBalance());

  const charges = (accountId: string) =>
    t.db.kysely
      .selectFrom('ledger')
      .select(['amount', 'endpoint'])
      .where('account_id', '=', accountId)
      .where('kind', '=', 'charge')
      .execute();

  it('resolves each identifier to its company record in order, 1 credit per job that resolves', async () => {
    const a = await t.account({ subscription: 'none', credits: 100 });
    const res = await t.post(
      RESOLVE,
      {
        jobs: [
          { ticker: 'beta' },
          { isin: ALPHA.isin },
          { lei: BETA.lei },
          { cik: '0000000001' },
          { name: 'gamma holdings' },
          { ticker: 'TWIN', mic_code: 'XLON' },
          { ticker: 'NOPE' },
          { company_id: ALPHA.id, name: 'ignored' },
        ],
      },
      a.key,
    );
    expect(res.status).toBe(200);
    const { results } = res.json<{ results: Result[] }>();
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 404, 200, 200, 404, 200]);
    expect(results.map((r) => r.data?.company_id)).toEqual([
      BETA.id,
      ALPHA.id,
      BETA.id,
      undefined,
      GAMMA.id,
      '00000000-0000-4000-8000-000000000008',
      undefined,
      ALPHA.id,
    ]);
    expect(results[0]?.data).toEqual({
      company_id: BETA.id,
      company_name: 'Beta Corporation',
      ticker: 'BETA',
      mic_code: 'XNYS',
      country: 'United States',
    });
    expect(results[6]?.detail).toContain('No company matches');
    expect([res.cost, res.balance]).toEqual([6, 94]);
    expect((await charges(a.accountId)).map((l) => [Number(l.amount), l.endpoint])).toEqual([[-6, 'companies/resolve']]);
  });

  it('costs nothing when no job resolves, and refuses with 402 when the balance is short, charging nothing', async () => {
    const a = await t.account({ credits: 2 });
    const none = await t.post(RESOLVE, { jobs: [{ ticker: 'NOPE' }, { cik: '99' }] }, a.key);
    expect([none.status, none.cost, none.balance]).toEqual([200, 0, 2]);
    const short = await t.post(RESOLVE, { jobs: [{ ticker: 'BETA' }, { ticker: 'ALPH' }, { ticker: 'GAMA' }] }, a.key, PROBLEM);
    expect([short.status, short.cost, short.balance]).toEqual([402, 3, 2]);
    expect(short.headers.get('content-type')).toContain('application/problem+json');
    expect(await charges(a.accountId)).toEqual([]);
  });

  it.each([
    [{ jobs: [{ ticker: 'BETA' }, {}] }, 'jobs[1]'],
    [{ jobs: [{ cik: 'abc' }] }, 'jobs[0].cik'],
    [{ jobs: [{ name: '' }] }, 'jobs[0].name'],
    [{ jobs: [{ ticker: 'BETA', reporting_period: 2023 }] }, 'jobs[0].reporting_period'],
    [{ jobs: Array.from({ length: 101 }, () => ({ ticker: 'BETA' })) }, 'jobs'],
  ])('refuses a malformed job with a 400 naming it (case %#)', async (body, param) => {
    const a = await t.account();
    const res = await t.post(RESOLVE, body, a.key, PROBLEM);
    expect(res.status).toBe(400);
    expect(res.json<{ param: string }>().param).toBe(param);
    expect(await charges(a.accountId)).toEqual([]);
  });

  it('answers POST only; 401 before anything else', async () => {
    expect((await t.post(RESOLVE, { jobs: [] })).status).toBe(401);
    const a = await t.account();
    const get = await t.get(RESOLVE, a.key);
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
    expect((await t.post(RESOLVE, 'x', a.key, { 'content-type': 'application/x-www-form-urlencoded' })).status).toBe(415);
  });

  it('answers the test token with mock companies for free; MOCK404 per job, MOCK402 for the call', async () => {
    const res = await t.post(RESOLVE, { jobs: [{ ticker: 'AAPL' }, { ticker: 'MOCK404' }, { name: 'anything' }] }, TEST_TOKEN);
    expect([res.status, res.cost, res.balance, res.headers.get('x-test-mode')]).toEqual([200, 0, 0, 'true']);
    const { results } = res.json<{ results: Result[] }>();
    expect(results.map((r) => r.status)).toEqual([200, 404, 200]);
    expect(results[0]?.data?.company_name).toContain('Mock');
    const short = await t.post(RESOLVE, { jobs: [{ ticker: 'MOCK402' }, { ticker: 'X' }] }, TEST_TOKEN);
    expect([short.status, short.cost, short.balance]).toEqual([402, 2, 0]);
  });
});
