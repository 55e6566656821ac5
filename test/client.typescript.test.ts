import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Answer,
  backoffDelayMs,
  CorpdataError,
  createCorpdataClient,
  DATASET_NAMES,
  retryAfterSeconds,
} from '../clients/typescript/src/index.js';
import { TEST_TOKEN } from '../src/auth/test-token.js';
import { pointId } from '../src/ingest/sources/bundle/import-bundle.js';
import { CLIENT_SOURCE_DIR, generateClientFiles } from '../src/tools/client-files.js';
import { DATASETS, SUBSCRIPTIONS } from './support/datasets.js';
import { dialects } from './support/dialects.js';
import { BETA, doc } from './support/fixture.js';
import { closedPortUrl, type FlakyServer, startFlakyServer } from './support/flaky-server.js';
import { GHG_BUNDLE, startApp, type TestApp } from './support/test-app.js';

const CLIENT_DIR = fileURLToPath(new URL('../clients/typescript/', import.meta.url));
const TSC = fileURLToPath(new URL('../node_modules/.bin/tsc', import.meta.url));
const CLIENT_SOURCE_DIR_ABS = fileURLToPath(new URL(`../${CLIENT_SOURCE_DIR}/`, import.meta.url));

function run(file: string, args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : Number(error.code ?? 1), output: stdout + stderr }),
    );
  });
}

describe('the TypeScript client, generated from the served document', () => {
  it('is what npm run client:generate writes (schema.d.ts, datasets.ts), and type-checks under strict', async () => {
    const generated = await generateClientFiles();
    expect([...generated.keys()].sort()).toEqual(['datasets.ts', 'schema.d.ts']);
    for (const [name, text] of generated) {
      // A difference means the API changed without `npm run client:generate`.
      expect(readFileSync(join(CLIENT_SOURCE_DIR_ABS, name), 'utf8'), name).toBe(text);
    }
    expect(DATASET_NAMES).toEqual(DATASETS.map((d) => d.name));
    const tsc = await run(TSC, ['-p', `${CLIENT_DIR}tsconfig.json`]);
    expect(tsc.output).toBe('');
    expect(tsc.code).toBe(0);
  }, 130_000);

  it('has one named call per registered dataset, the same as dataset(name, …)', () => {
    const corpdata = createCorpdataClient({ baseUrl: 'http://127.0.0.1:9', apiKey: TEST_TOKEN });
    const methods = corpdata as unknown as Record<string, unknown>;
    for (const { name } of DATASETS) {
      const method = name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
      expect(typeof methods[method], method).toBe('function');
    }
  });
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
      subscriptions: SUBSCRIPTIONS,
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
    const revenue = provenance.data;
    // A mock record's id answers mock provenance, which has no values: the union says so.
    expect('values' in revenue && revenue.values?.value).toBe(8362000000);
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

  it('asks for a history, a batch and company resolution, each with the credits it cost', async () => {
    const a = await t.account({ credits: 200 });
    const corpdata = createCorpdataClient({ baseUrl: t.url, apiKey: a.key });
    const history = await corpdata.history('revenues', { ticker: 'BETA', from: 2023, to: 2024 });
    expect(history.data.company_id).toBe(BETA.id);
    expect(history.data.periods.map((p) => [p.reporting_period, p.records[0]?.reporting_period])).toEqual([
      [2024, 2024],
      [2023, 2023],
    ]);
    expect(history.credits).toEqual({ cost: 50, balance: 150 });
    const batch = await corpdata.batch('revenues', [
      { ticker: 'BETA', reporting_period: 2023 },
      { ticker: 'NOPE', reporting_period: 2023 },
      { isin: BETA.isin, reporting_period: 2022 },
    ]);
    expect(batch.data.map((r) => r.status)).toEqual([200, 404, 200]);
    expect(batch.data[0]?.data?.[0]?.document_id).toBe(doc(3));
    expect(batch.data[1]?.detail).toContain('No company matches');
    expect(batch.credits).toEqual({ cost: 26, balance: 124 });
    const resolved = await corpdata.resolve([{ ticker: 'BETA' }, { name: 'nothing like it at all zzzz' }]);
    expect(resolved.data[0]?.data?.company_id).toBe(BETA.id);
    expect(resolved.credits?.cost).toBe(resolved.data.filter((r) => r.status === 200).length);
    const error = await corpdata.batch('revenues', [{ ticker: 'BETA', reporting_period: 2023 }, { reporting_period: 2023 }]).then(
      () => undefined,
      (e: unknown) => e as CorpdataError,
    );
    expect([error?.kind, error?.param]).toEqual(['bad_request', 'jobs[1]']);
    const poor = await createCorpdataClient({ baseUrl: t.url, apiKey: (await t.account({ credits: 30 })).key })
      .history('revenues', { ticker: 'BETA', last: 3 })
      .then(
        () => undefined,
        (e: unknown) => e as CorpdataError,
      );
    expect([poor?.kind, poor?.credits]).toEqual(['insufficient_credits', { cost: 75, balance: 30 }]);
  });

  it('asks for the statement of a company-period, billed as the sum of its items, all or nothing', async () => {
    const a = await t.account({ credits: 100 });
    const corpdata = createCorpdataClient({ baseUrl: t.url, apiKey: a.key });
    const statement = await corpdata.fundamentals({ ticker: 'BETA', reporting_period: 2024 });
    expect([statement.data.company_id, statement.data.reporting_period]).toEqual([BETA.id, 2024]);
    expect(statement.data.items.revenues?.map((r) => [r.value, r.document_id])).toEqual([[9_000_000_000, doc(4)]]);
    // Beta's 2024 10-K has only a revenue in the fixture: every other item is empty, billed 1 as its 204.
    const others = Object.entries(statement.data.items).filter(([item]) => item !== 'revenues');
    expect(others.length).toBeGreaterThanOrEqual(11);
    for (const [item, records] of others) expect(records, item).toEqual([]);
    const cost = 25 + others.length;
    expect(statement.credits).toEqual({ cost, balance: 100 - cost });
    const poor = await createCorpdataClient({ baseUrl: t.url, apiKey: (await t.account({ credits: 20 })).key })
      .fundamentals({ ticker: 'BETA', reporting_period: 2024 })
      .then(
        () => undefined,
        (e: unknown) => e as CorpdataError,
      );
    expect([poor?.kind, poor?.credits]).toEqual(['insufficient_credits', { cost: 25 + others.length, balance: 20 }]);
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

/** The CorpdataError a call rejects with (and fails the test if it resolves). */
async function refusal(call: Promise<unknown>): Promise<CorpdataError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CorpdataError);
  return error as CorpdataError;
}

describe('how long the TypeScript client waits before a retry', () => {
  it('backs off exponentially with jitter, half of each delay for sure, up to the ceiling', () => {
    const options = { backoffMs: 500, maxBackoffMs: 10_000 };
    expect([0, 1, 2, 3].map((attempt) => backoffDelayMs(attempt, { ...options, random: () => 0 }))).toEqual([
      250, 500, 1000, 2000,
    ]);
    expect([0, 1, 2, 3].map((attempt) => backoffDelayMs(attempt, { ...options, random: () => 1 }))).toEqual([
      500, 1000, 2000, 4000,
    ]);
    expect(backoffDelayMs(10, { ...options, random: () => 1 })).toBe(10_000);
    for (let i = 0; i < 100; i++) expect(backoffDelayMs(2, options)).toBeGreaterThanOrEqual(1000);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterSeconds('7', now)).toBe(7);
    expect(retryAfterSeconds('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30);
    expect(retryAfterSeconds('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect([retryAfterSeconds('soon', now), retryAfterSeconds(null, now)]).toEqual([undefined, undefined]);
  });
});

describe('the TypeScript client when the network or the server misbehaves', () => {
  let t: TestApp;
  let flaky: FlakyServer;
  beforeAll(async () => {
    t = await startApp(dialects()[0] ?? 'sqlite');
    flaky = await startFlakyServer(t.url);
  });
  afterAll(async () => {
    await flaky.close();
    await t.close();
  });
  const client = (options: { maxRetries?: number; maxWaitSeconds?: number; timeout?: number } = {}) =>
    createCorpdataClient({ baseUrl: flaky.url, apiKey: TEST_TOKEN, backoffMs: 20, maxBackoffMs: 100, ...options });

  it('retries 502, 503, 504 and 429 with backoff, then answers', async () => {
    const before = flaky.requests;
    flaky.fail({ status: 502 }, { status: 503 }, { status: 504 }, { status: 429 });
    const answer = await client({ maxRetries: 4 }).revenues({ ticker: 'ANY', reporting_period: -1 });
    expect(answer.data.length).toBeGreaterThan(0);
    expect([answer.noData, answer.testMode]).toEqual([false, true]);
    expect(flaky.requests - before).toBe(5);
  });

  it('waits the Retry-After the server gave, and gives up at once when it is beyond maxWaitSeconds', async () => {
    flaky.fail({ status: 429, retryAfter: '1' });
    const started = Date.now();
    await client().account();
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);

    flaky.fail({ status: 503, retryAfter: '120' });
    const at = Date.now();
    const error = await refusal(client({ maxWaitSeconds: 60 }).account());
    expect([error.kind, error.status, error.retryAfter]).toEqual(['unavailable', 503, 120]);
    expect(Date.now() - at).toBeLessThan(1000);
  });

  it('retries when the connection is reset, and gives up past maxRetries with the last answer', async () => {
    const before = flaky.requests;
    flaky.fail({ reset: true }, { reset: true });
    expect((await client().account()).data.account_id).toBeTruthy();
    expect(flaky.requests - before).toBe(3);

    flaky.fail({ status: 502 }, { status: 502 }, { status: 502 });
    const error = await refusal(client({ maxRetries: 2 }).account());
    expect([error.kind, error.status, error.message]).toEqual(['bad_gateway', 502, 'Flaky answer 502.']);

    flaky.fail({ reset: true }, { reset: true });
    const reset = await refusal(client({ maxRetries: 1 }).account());
    expect([reset.kind, reset.status]).toEqual(['network', 0]);
  });

  it('fails with kind network when nothing listens, after its retries', async () => {
    const url = await closedPortUrl();
    const error = await refusal(
      createCorpdataClient({ baseUrl: url, apiKey: TEST_TOKEN, maxRetries: 2, backoffMs: 10 }).account(),
    );
    expect([error.kind, error.status]).toEqual(['network', 0]);
    expect(error.message).toBe(`Could not reach ${url} (ECONNREFUSED).`);
    expect(error.cause).toBeInstanceOf(TypeError);
  });

  it("fails with kind timeout past the call's timeout, and kind aborted when its signal aborts", async () => {
    flaky.fail({ delayMs: 3000 });
    let started = Date.now();
    const late = await refusal(client().account({ timeout: 200 }));
    expect([late.kind, late.status]).toEqual(['timeout', 0]);
    expect(Date.now() - started).toBeLessThan(1500);

    // The client's default timeout, retries included: a backoff does not outlive it.
    flaky.fail({ status: 503, retryAfter: '5' });
    started = Date.now();
    expect((await refusal(client({ timeout: 300 }).account())).kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1500);

    flaky.fail({ delayMs: 3000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const aborted = await refusal(client().account({ signal: controller.signal, timeout: 10_000 }));
    expect(aborted.kind).toBe('aborted');
    expect((await refusal(client().account({ signal: AbortSignal.abort() }))).kind).toBe('aborted');
  });
});

describe('the TypeScript client with the test token: no data and problem details', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(dialects()[0] ?? 'sqlite');
  });
  afterAll(() => t.close());
  const mock = () => createCorpdataClient({ baseUrl: t.url, apiKey: TEST_TOKEN, maxRetries: 0 });

  it('answers a 204 with noData and an empty array, on every dataset', async () => {
    const corpdata = mock();
    const query = { ticker: 'MOCK204', reporting_period: -1 };
    // The named calls (`ghgEmissions`) are the generic one under the dataset's name.
    const named = corpdata as unknown as Record<string, (q: typeof query) => Promise<Answer<unknown[]>>>;
    for (const name of DATASET_NAMES) {
      const method = named[name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase())];
      if (method === undefined) throw new Error(`no named call for ${name}`);
      for (const answer of [await corpdata.dataset(name, query), await method(query)]) {
        expect([answer.data, answer.noData, answer.testMode], name).toEqual([[], true, true]);
      }
    }
    const some = await corpdata.dataset('ghg-emissions', { ticker: 'ANY', reporting_period: -1 });
    expect(some.noData).toBe(false);
    expect(some.data[0]?.unit).toBe('tCO2e');
  });

  it('answers the statement call from each item’s mock, as its single call', async () => {
    const corpdata = mock();
    const statement = await corpdata.fundamentals({ ticker: 'ANY', reporting_period: -1 });
    expect([statement.testMode, statement.credits?.cost]).toEqual([true, 0]);
    expect(statement.data.items.revenues).toEqual((await corpdata.revenues({ ticker: 'ANY', reporting_period: -1 })).data);
  });

  it('reads the problem details of 402, 403 and 404 into the error', async () => {
    const corpdata = mock();
    for (const name of DATASET_NAMES) {
      const forbidden = await refusal(corpdata.dataset(name, { ticker: 'MOCK403', reporting_period: -1 }));
      expect([forbidden.kind, forbidden.status, forbidden.title]).toEqual([
        'subscription_required',
        403,
        'Subscription required',
      ]);
      expect(forbidden.requiredSubscription).toBe(DATASETS.find((d) => d.name === name)?.subscription);
      expect(forbidden.message).toBe(forbidden.detail);
      expect(forbidden.message).not.toMatch(/^HTTP/);
      expect(forbidden.problem?.instance).toBe(`urn:uuid:${forbidden.requestId}`);

      const unknown = await refusal(corpdata.dataset(name, { ticker: 'MOCK404', reporting_period: -1 }));
      expect([unknown.kind, unknown.status, unknown.detail, unknown.didYouMean]).toEqual([
        'not_found',
        404,
        'No company matches the given ticker.',
        [],
      ]);

      const poor = await refusal(corpdata.dataset(name, { ticker: 'MOCK402', reporting_period: -1 }));
      expect([poor.kind, poor.status, poor.credits?.balance]).toEqual(['insufficient_credits', 402, 0]);
      expect(poor.detail).toMatch(/^Insufficient credits/);
    }
  });

  it('reads the problem details of 400, 401 and a real 404 into the error', async () => {
    const a = await t.account({ credits: 100 });
    const corpdata = createCorpdataClient({ baseUrl: t.url, apiKey: a.key, maxRetries: 0 });
    const bad = await refusal(corpdata.revenues({ ticker: 'BETA', reporting_period: 1999 }));
    expect([bad.kind, bad.param]).toEqual(['bad_request', 'reporting_period']);
    const anonymous = await refusal(createCorpdataClient({ baseUrl: t.url, apiKey: 'not.a.key' }).account());
    expect([anonymous.kind, anonymous.status, typeof anonymous.title]).toEqual(['unauthorized', 401, 'string']);
    const close = await refusal(corpdata.revenues({ ticker: 'BETAX', reporting_period: -1 }));
    expect(close.kind).toBe('not_found');
    expect(Array.isArray(close.didYouMean)).toBe(true);
    const period = await refusal(corpdata.revenues({ ticker: 'BETA', reporting_period: 2020 }));
    expect([period.kind, period.availablePeriods]).toEqual(['not_found', [2024, 2023, 2022]]);
    expect((await corpdata.account()).data.balance).toBe(100);
  });
});
