import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CorpdataError, createCorpdataClient } from '../clients/typescript/src/index.js';
import { TEST_TOKEN } from '../src/auth/test-token.js';
import { pointId } from '../src/ingest/bundle/import-bundle.js';
import { dialects } from './support/dialects.js';
import { BETA, doc } from './support/fixture.js';
import { GHG_BUNDLE, startApp, type TestApp } from './support/test-app.js';

const CLIENT_DIR = fileURLToPath(new URL('../clients/typescript/', import.meta.url));
const TSC = fileURLToPath(new URL('../node_modules/.bin/tsc', import.meta.url));
/** The committed schema is generated from a server whose public URL is the default one. */
const GENERATED_FROM = 'http://localhost:8080';

function run(file: string, args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : Number(error.code ?? 1), output: stdout + stderr }),
    );
  });
}

describe('the TypeScript client, generated from a live server', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(dialects()[0] ?? 'sqlite', { env: { CORPDATA_PUBLIC_URL: GENERATED_FROM } });
  });
  afterAll(() => t.close());

  it('is what openapi-typescript makes of the served document, and type-checks under strict', async () => {
    const document = (await t.get('/api/v1/openapi.json')).json<Record<string, unknown>>();
    const generated = astToString(await openapiTS(document as never));
    const committed = readFileSync(`${CLIENT_DIR}src/schema.d.ts`, 'utf8');
    // The committed file carries the generator's banner; the rest must match byte for byte.
    expect(committed.slice(committed.indexOf('export interface paths'))).toBe(
      generated.slice(generated.indexOf('export interface paths')),
    );
    const tsc = await run(TSC, ['-p', `${CLIENT_DIR}tsconfig.json`]);
    expect(tsc.output).toBe('');
    expect(tsc.code).toBe(0);
  }, 130_000);
});

describe.each(dialects())('the TypeScript client against a live server (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(dialect, { more: [GHG_BUNDLE] });
  });
  afterAll(() => t.close());

  it('calls every endpoint, with the credits each cost', async () => {
    const a = await t.account({ credits: 200 });
    const corpdata = createCorpdataClient({ baseUrl: t.url, apiKey: a.key });

    const account = await corpdata.account();
    expect(account.data).toEqual({
      account_id: a.accountId,
      balance: 200,
      subscription: 'revenues',
      subscriptions: ['revenues', 'ghg'],
    });
    expect(account.credits).toEqual({ cost: 0, balance: 200 });

    const periods = await corpdata.periods({ ticker: 'BETA', mic_code: 'XNYS' });
    expect(periods.data.reporting_periods).toEqual([2024, 2023, 2022]);

    const revenues = await corpdata.revenues({ company_id: BETA.id, reporting_period: -2 });
    expect(revenues.data.map((r) => r.value)).toEqual([8362000000, 8400000000]);
    expect(revenues.credits).toEqual({ cost: 25, balance: 175 });
    expect(revenues.requestId).toMatch(/^[0-9a-f-]{36}$/);

    const search = await corpdata.searchCompanies('beta');
    expect(search.data[0]?.company_id).toBe(BETA.id);

    const list = await corpdata.listCompanies();
    expect(list.data?.length).toBeGreaterThan(5);
    expect(list.credits).toEqual({ cost: 100, balance: 74 });
    const again = await corpdata.listCompanies(list.etag ?? '');
    expect([again.data, again.credits?.cost]).toEqual([null, 0]);

    const provenance = await corpdata.provenance(pointId(doc(3), 2023));
    expect(provenance.data.values?.value).toBe(8362000000);
    const revenue = provenance.data;
    expect('document' in revenue && revenue.document.source_url).toBe('https://example.com/beta/10k-2023.htm');

    // The generated client underneath, for anything else.
    const raw = await corpdata.api.GET('/api/v1/account');
    expect(raw.data?.balance).toBe(74);
  });

  it('calls the GHG datasets and their periods, each billed on its own', async () => {
    const a = await t.account({ credits: 100 });
    const corpdata = createCorpdataClient({ baseUrl: t.url, apiKey: a.key });
    const periods = await corpdata.periods({ ticker: 'BETA' }, 'ghg-emissions');
    expect(periods.data.reporting_periods[0]).toBe(2024);
    expect(periods.credits?.cost).toBe(0);
    const emissions = await corpdata.ghgEmissions({ ticker: 'BETA', reporting_period: 2023 });
    expect(emissions.data[0]).toMatchObject({ scope: '1', unit: 'tCO2e', reporting_period: 2023 });
    expect(emissions.credits).toEqual({ cost: 25, balance: 75 });
    expect((await corpdata.periods({ ticker: 'BETA' }, 'ghg-intensity')).data.company_id).toBe(BETA.id);
    const intensity = await corpdata.ghgIntensity({ ticker: 'BETA', reporting_period: 2023 });
    expect(intensity.data[0]).toMatchObject({ unit: 'tCO2e/USD million', reporting_period: 2023 });
    expect(intensity.credits).toEqual({ cost: 25, balance: 50 });
  });

  it('answers a 204 with an empty array, and refuses with typed errors', async () => {
    const a = await t.account({ credits: 30 });
    const corpdata = createCorpdataClient({ baseUrl: t.url, apiKey: a.key });
    const refusal = async (call: Promise<unknown>) => {
      const error = await call.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(CorpdataError);
      return error as CorpdataError;
    };
    const notFound = await refusal(corpdata.revenues({ ticker: 'NOPE', reporting_period: -1 }));
    expect([notFound.kind, notFound.status, notFound.message]).toEqual([
      'not_found',
      404,
      'No company matches the given ticker.',
    ]);
    expect(notFound.requestId).toMatch(/^[0-9a-f-]{36}$/);
    const bad = await refusal(corpdata.searchCompanies(''));
    expect(bad.kind).toBe('bad_request');
    expect(bad.message).toContain("'query'");
    const poor = await refusal(corpdata.listCompanies());
    expect([poor.kind, poor.credits]).toEqual(['insufficient_credits', { cost: 100, balance: 30 }]);
    const anonymous = await refusal(createCorpdataClient({ baseUrl: t.url, apiKey: 'not.a.key' }).account());
    expect(anonymous.kind).toBe('unauthorized');
    const none = await t.account({ subscription: 'none' });
    const forbidden = await refusal(createCorpdataClient({ baseUrl: t.url, apiKey: none.key }).periods({ ticker: 'BETA' }));
    expect(forbidden.kind).toBe('subscription_required');
    // The test token answers mock data for free.
    const mock = await createCorpdataClient({ baseUrl: t.url, apiKey: TEST_TOKEN }).revenues({
      ticker: 'ANY',
      reporting_period: -1,
    });
    expect(mock.credits?.cost).toBe(0);
  });

  it('waits out 429s as Retry-After says, and gives up past maxRetries with a rate_limited error', async () => {
    const limited = await startApp(dialect, { env: { CORPDATA_RATE_LIMIT: '3/s' } });
    try {
      const a = await limited.account();
      const patient = createCorpdataClient({ baseUrl: limited.url, apiKey: a.key });
      const answers = await Promise.all(Array.from({ length: 8 }, () => patient.account()));
      expect(answers.every((r) => r.data.account_id === a.accountId)).toBe(true);

      const b = await limited.account();
      const hasty = createCorpdataClient({ baseUrl: limited.url, apiKey: b.key, maxRetries: 0 });
      const results = await Promise.allSettled(Array.from({ length: 6 }, () => hasty.account()));
      const errors = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as CorpdataError] : []));
      expect(errors.length).toBeGreaterThanOrEqual(2);
      for (const e of errors) {
        expect(e.kind).toBe('rate_limited');
        expect(e.retryAfter).toBeGreaterThanOrEqual(1);
      }
    } finally {
      await limited.close();
    }
  }, 30_000);
});
