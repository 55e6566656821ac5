import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from './support/dialects.js';
import { ALPHA, BETA, GAMMA } from './support/fixture.js';
import { startApp, type TestAccount, type TestApp } from './support/test-app.js';

describe.each(dialects())('revenues, refusals (%s)', (dialect) => {
  let t: TestApp;
  let caller: TestAccount;
  beforeAll(async () => {
    t = await startApp(dialect);
    caller = await t.account({ credits: 10_000 });
  });
  afterAll(() => t.close());
  afterEach(() => t.expectLedgersBalance());

  /** Asserts a 400 naming `param`, and that it cost nothing. */
  async function expect400(query: string, param: string) {
    const before = await t.get('/api/v1/companies/search?query=zz_probe', caller.key);
    const res = await t.get(`/api/v1/revenues?${query}`, caller.key);
    expect(res.status, `${query} → ${res.text}`).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(res.text).toContain(`'${param}'`);
    expect(res.text).not.toMatch(/at .*\.js|Error:/);
    const after = await t.get('/api/v1/companies/search?query=zz_probe', caller.key);
    expect((after.balance ?? 0) - (before.balance ?? 0)).toBe(-1); // only the probe itself was charged
  }

  it.each([
    ['-7', 400],
    ['-6', 404],
    ['-1', 200],
    ['0', 400],
    ['2019', 400],
    ['2020', 404],
    ['2026', 404],
    ['2027', 400],
    ['1.5', 400],
    ['2023.0', 400],
    ['abc', 400],
    ['0x7E7', 400],
    ['%202023', 400],
    ['1e3', 400],
  ])('reporting_period=%s answers %i', async (period, status) => {
    const res = await t.get(`/api/v1/revenues?ticker=BETA&reporting_period=${period}`, caller.key);
    expect(res.status, res.text).toBe(status);
    if (status === 400) expect(res.text).toContain("'reporting_period'");
  });

  it('accepts every absolute year 2020..2026 and offset -6..-1 as valid input', async () => {
    for (const p of [2020, 2021, 2022, 2023, 2024, 2025, 2026, -1, -2, -3, -4, -5, -6]) {
      const res = await t.get(`/api/v1/revenues?ticker=BETA&reporting_period=${p}`, caller.key);
      expect([200, 204, 404]).toContain(res.status);
    }
  });

  it('refuses a missing reporting_period', () => expect400('ticker=BETA', 'reporting_period'));

  it('checks ticker length at and beyond its bounds', async () => {
    await expect400('ticker=&reporting_period=2023', 'ticker');
    expect((await t.get('/api/v1/revenues?ticker=B&reporting_period=2023', caller.key)).status).toBe(404);
    expect((await t.get(`/api/v1/revenues?ticker=${'A'.repeat(15)}&reporting_period=2023`, caller.key)).status).toBe(404);
    await expect400(`ticker=${'A'.repeat(16)}&reporting_period=2023`, 'ticker');
  });

  it('checks ISIN length and pattern', async () => {
    expect((await t.get(`/api/v1/revenues?isin=${BETA.isin}&reporting_period=2023`, caller.key)).status).toBe(200);
    await expect400('isin=US000BETA00&reporting_period=2023', 'isin');
    await expect400('isin=US000BETA0088&reporting_period=2023', 'isin');
    await expect400('isin=us000beta008&reporting_period=2023', 'isin');
    await expect400('isin=US000BETA00X&reporting_period=2023', 'isin');
    await expect400('isin=1S000BETA008&reporting_period=2023', 'isin');
  });

  it('checks LEI length and pattern', async () => {
    expect((await t.get(`/api/v1/revenues?lei=${BETA.lei}&reporting_period=2023`, caller.key)).status).toBe(200);
    await expect400(`lei=${BETA.lei.slice(0, 19)}&reporting_period=2023`, 'lei');
    await expect400(`lei=${BETA.lei}0&reporting_period=2023`, 'lei');
    await expect400('lei=5493000BETA00000CDX4&reporting_period=2023', 'lei');
    await expect400('lei=5493000beta00000CD94&reporting_period=2023', 'lei');
  });

  it('checks company_id is a UUID and mic_code is one of the listed codes', async () => {
    await expect400('company_id=not-a-uuid&reporting_period=2023', 'company_id');
    await expect400('ticker=BETA&mic_code=XNAS&reporting_period=2023', 'mic_code');
    await expect400('ticker=BETA&mic_code=xnys&reporting_period=2023', 'mic_code');
  });

  it('names unknown, repeated and empty parameters', async () => {
    await expect400('ticker=BETA&reporting_year=2023', 'reporting_year');
    await expect400('ticker=BETA&reporting_period=2023&reporting_period=2024', 'reporting_period');
    await expect400('ticker=BETA&ticker=ALPH&reporting_period=2023', 'ticker');
    await expect400('ticker=BETA&mic_code=&reporting_period=2023', 'mic_code');
    await expect400('ticker=BETA&reporting_period=', 'reporting_period');
  });

  it('refuses a call without an identifier; mic_code alone is none', async () => {
    for (const q of ['reporting_period=2023', 'mic_code=XNYS&reporting_period=2023']) {
      const res = await t.get(`/api/v1/revenues?${q}`, caller.key);
      expect(res.status).toBe(400);
      expect(res.text).toMatch(/identifier/);
    }
  });

  it('validates a lower identifier given beside a higher one, then ignores it', async () => {
    await expect400(`company_id=${BETA.id}&ticker=${'X'.repeat(16)}&reporting_period=2023`, 'ticker');
    const res = await t.get(
      `/api/v1/revenues?company_id=${BETA.id}&isin=${ALPHA.isin}&lei=${ALPHA.lei}&ticker=ALPH&reporting_period=2023`,
      caller.key,
    );
    expect(res.json<Array<{ company_id: string }>>()[0]?.company_id).toBe(BETA.id);
  });

  it('follows company_id > isin > lei > ticker', async () => {
    const company = (q: string) =>
      t
        .get(`/api/v1/revenues?${q}&reporting_period=2023`, caller.key)
        .then((r) => r.json<Array<{ company_id: string }>>()[0]?.company_id);
    expect(await company(`isin=${ALPHA.isin}&lei=${BETA.lei}&ticker=BETA`)).toBe(ALPHA.id);
    expect(await company(`lei=${ALPHA.lei}&ticker=BETA`)).toBe(ALPHA.id);
    expect(await company(`ticker=BETA&mic_code=XNYS`)).toBe(BETA.id);
  });

  it('answers 404 for unknown companies, uncovered periods, pending and failed documents; free of charge', async () => {
    const cases = [
      'company_id=99999999-9999-4999-8999-999999999999&reporting_period=2023',
      'isin=US0378331005&reporting_period=2023',
      'ticker=NOPE&reporting_period=2023',
      'ticker=BETA&mic_code=XLON&reporting_period=2023',
      'ticker=BETA&reporting_period=2021',
      `company_id=${GAMMA.id}&reporting_period=2024`,
      `company_id=${GAMMA.id}&reporting_period=2021`,
      `company_id=${GAMMA.id}&reporting_period=-2`,
    ];
    const before = await t.get('/api/v1/companies/search?query=zz_probe', caller.key);
    for (const q of cases) {
      const res = await t.get(`/api/v1/revenues?${q}`, caller.key);
      expect(res.status, q).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(res.cost).toBeNull();
    }
    const after = await t.get('/api/v1/companies/search?query=zz_probe', caller.key);
    expect((before.balance ?? 0) - (after.balance ?? 0)).toBe(1);
  });

  it('gives every response its own request id, and unknown routes a plain 404', async () => {
    const a = await t.get('/api/v1/revenues?ticker=BETA&reporting_period=2023', caller.key);
    const b = await t.get('/api/v1/revenues?ticker=BETA&reporting_period=2023', caller.key);
    expect(a.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
    const missing = await t.get('/api/v1/emissions', caller.key);
    expect(missing.status).toBe(404);
  });
});
