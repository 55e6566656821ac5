import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFuzz } from '../src/tools/fuzz.js';
import { dialects } from './support/dialects.js';
import { startApp, type TestApp } from './support/test-app.js';

/** The short version of `npm run fuzz` (docs/hardening.md has the full-size run). */
const REQUESTS = Number(process.env.CORPDATA_FUZZ_REQUESTS ?? 1500);

describe.each(dialects())('fuzzing from the OpenAPI document (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(dialect);
  });
  afterAll(() => t.close());

  it(`answers ${REQUESTS} fuzzed and malformed requests without a 5xx, every error in the one form, the ledger matching every answer`, async () => {
    const rich = await t.account({ credits: 10_000_000 });
    const poor = await t.account({ credits: 30 });
    const unsubscribed = await t.account({ subscription: 'none' });
    const report = await runFuzz({
      baseUrl: t.url,
      requests: REQUESTS,
      connections: 16,
      keys: [rich.key, rich.key, poor.key, unsubscribed.key],
      examples: {
        ticker: ['BETA', 'ALPH', 'ALPHY', 'GAMA', 'beta'],
        mic_code: ['XETR', 'XLON', 'XNYS', 'OTCM'],
        company_id: ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'],
        isin: ['DE000ALPH005', 'US000BETA008', 'GB000GAMMA09'],
        lei: ['5299000ALPHA0000AB44', '5493000BETA00000CD94'],
        query: ['beta', 'Alpha', 'gam'],
      },
      db: t.db.kysely,
      seed: 12,
    });
    expect(report.discrepancies).toEqual([]);
    expect(report.requests).toBe(REQUESTS);
    // Percent-encoded and absolute-form targets were among them, each checked for the limiter's headers.
    expect(report.spelled).toBeGreaterThan(20);
    // The run reached every kind of answer, billed ones included.
    for (const status of ['200', '400', '401', '402', '403', '404'])
      expect(report.byStatus[status] ?? 0, status).toBeGreaterThan(0);
    // Every answer that said it cost something is one charge; the free calls (account, periods, provenance) none.
    expect(report.paid).toBeGreaterThan(0);
    expect(report.charges).toBe(report.paid);
    // Histories and batches (several ledger lines each) were among them, each matching what its client saw.
    expect(report.multiPart).toBeGreaterThan(0);
    expect(Object.keys(report.byStatus).some((s) => Number(s) >= 500)).toBe(false);
  }, 120_000);
});
