import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../src/db/connect.js';
import { importBundle } from '../src/ingest/sources/bundle/import-bundle.js';
import type { Response } from './support/api-client.js';
import { BIN, type CliResult, corpdata } from './support/cli.js';
import { BUNDLES } from './support/datasets.js';
import { dialects } from './support/dialects.js';
import { doc } from './support/fixture.js';
import { FIXTURE_BUNDLE, startApp, TEST_SECRET, type TestApp } from './support/test-app.js';

const DOCUMENT_HEADER = 'document_id,company_id,title,source_url,published_on,reporting_period,status';
const GAMMA = '00000000-0000-4000-8000-000000000003';
const QUIET = '00000000-0000-4000-8000-000000000009';
const QUIET_DOC = '10000000-0000-4000-8000-000000000099';

const gammaReport2024 = (status: string) =>
  `${doc(6)},${GAMMA},Gamma Annual Report 2024,https://example.com/gamma/ar2024.pdf,2025-04-01,2024,${status}`;
const quietReport2023 = (status: string) =>
  `${QUIET_DOC},${QUIET},Quiet Shell Annual Report 2023,https://example.com/quiet/ar2023.pdf,2024-03-01,2023,${status}`;

interface Point {
  value: number;
  original_value: number | null;
  original_ccy: string;
  document_id: string;
}

/**
 * The document lifecycle and FX re-normalization, seen through the API of a running server while
 * the operator imports partial bundles with `bin/corpdata import` against the same database.
 */
describe.each(dialects())('document lifecycle and FX re-normalization (%s)', (dialect) => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    t = await startApp(dialect);
    dir = mkdtempSync(join(tmpdir(), 'corpdata-lifecycle-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t.close();
  });
  afterEach(() => t.expectLedgersBalance());

  let bundles = 0;
  /** Imports a bundle of the given files through the CLI and returns its result. */
  const importFiles = async (files: Record<string, string>): Promise<CliResult> => {
    const bundle = join(dir, `bundle-${++bundles}`);
    rmSync(bundle, { recursive: true, force: true });
    mkdirSync(bundle);
    for (const [name, text] of Object.entries(files)) writeFileSync(join(bundle, name), text);
    return corpdata(['import', bundle], { CORPDATA_DATABASE: t.database.url, CORPDATA_SECRET: TEST_SECRET });
  };

  /** Asks until the running server answers `status` (it picks imports up within its sync interval). */
  const until = async (path: string, key: string, status: number): Promise<Response> => {
    const deadline = Date.now() + 3_000;
    for (;;) {
      const res = await t.get(path, key);
      if (res.status === status || Date.now() > deadline) return res;
      await new Promise((r) => setTimeout(r, 25));
    }
  };

  it('answers 404 while a document is pending, 200 once processed, 404 again once failed', async () => {
    const { key } = await t.account({ credits: 1000 });
    const path = '/api/v1/revenues?ticker=GAMA&reporting_period=2024';
    const pending = await t.get(path, key);
    expect(pending.status).toBe(404);
    expect(pending.balance).toBeNull();

    const processed = await importFiles({ 'documents.csv': `${DOCUMENT_HEADER}\n${gammaReport2024('processed')}\n` });
    expect(processed.code, processed.stderr).toBe(0);
    expect(processed.json()).toMatchObject({ documents: 1, companies: 0, revenues: 0, renormalized: 0 });
    const served = await until(path, key, 200);
    expect(served.status).toBe(200);
    // 1,600,000,000 GBP at 1.27805 USD per GBP (2024).
    expect(served.json<Point[]>()).toEqual([
      expect.objectContaining({ document_id: doc(6), value: 2_044_880_000, original_value: 1_600_000_000, original_ccy: 'GBP' }),
    ]);
    expect(served.cost).toBe(25);
    // -1 now resolves to the newly available period.
    const latest = await t.get('/api/v1/revenues?ticker=GAMA&reporting_period=-1', key);
    expect([latest.status, latest.cost]).toEqual([200, 1]);
    expect(latest.json<Point[]>()[0]?.document_id).toBe(doc(6));

    const failed = await importFiles({ 'documents.csv': `${DOCUMENT_HEADER}\n${gammaReport2024('failed')}\n` });
    expect(failed.code, failed.stderr).toBe(0);
    const gone = await until(path, key, 404);
    expect(gone.status).toBe(404);
    const back = await t.get('/api/v1/revenues?ticker=GAMA&reporting_period=-1', key);
    expect(back.json<Point[]>()[0]?.document_id).toBe(doc(5));
  });

  it('answers 404 for a pending report without figures, 204 once it is processed', async () => {
    const { key } = await t.account({ credits: 1000 });
    const path = '/api/v1/revenues?ticker=QUIET&reporting_period=2023';
    const added = await importFiles({ 'documents.csv': `${DOCUMENT_HEADER}\n${quietReport2023('pending')}\n` });
    expect(added.code, added.stderr).toBe(0);
    expect((await t.get(path, key)).status).toBe(404);

    const processed = await importFiles({ 'documents.csv': `${DOCUMENT_HEADER}\n${quietReport2023('processed')}\n` });
    expect(processed.code, processed.stderr).toBe(0);
    const empty = await until(path, key, 204);
    expect([empty.status, empty.cost, empty.text]).toEqual([204, 1, '']);
  });

  it('recomputes stored USD values when an import brings new FX rates, sub-units included', async () => {
    const { key } = await t.account({ credits: 1000 });
    const alpha = '/api/v1/revenues?ticker=ALPH&reporting_period=2023';
    const delta = '/api/v1/revenues?ticker=DLT&reporting_period=2023';
    const alpha2022 = '/api/v1/revenues?ticker=ALPH&reporting_period=2022';
    // 21,427,000,000 EUR at 1.08127; 4,500,000,000,000 ZAC (ZAR cents) at 0.0543 USD per ZAR.
    expect((await t.get(alpha, key)).json<Point[]>().map((p) => p.value)).toEqual([23_168_372_290]);
    expect((await t.get(delta, key)).json<Point[]>().map((p) => p.value)).toEqual([2_443_500_000]);
    const before2022 = (await t.get(alpha2022, key)).text;

    const result = await importFiles({
      'fx_rates.csv':
        'currency,year,usd_per_unit,source\nEUR,2023,1.1,Revised annual average\nZAR,2023,0.055,Revised annual average\n',
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.json()).toMatchObject({ fx_rates: 2, renormalized: 2 });

    const deadline = Date.now() + 3_000;
    let value = 0;
    while (Date.now() < deadline) {
      value = (await t.get(alpha, key)).json<Point[]>()[0]?.value ?? 0;
      if (value !== 23_168_372_290) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(value).toBe(23_569_700_000);
    const deltaAfter = await t.get(delta, key);
    expect(deltaAfter.json<Point[]>()).toEqual([
      expect.objectContaining({ value: 2_475_000_000, original_value: 4_500_000_000_000, original_ccy: 'ZAC' }),
    ]);
    // Already bought: a new rate does not make the company-period a new purchase.
    expect(deltaAfter.cost).toBe(1);
    // Figures of other currency-years keep their values.
    expect((await t.get(alpha2022, key)).text).toBe(before2022);

    const again = await importFiles({
      'fx_rates.csv': 'currency,year,usd_per_unit,source\nEUR,2023,1.1,Revised annual average\n',
    });
    expect(again.json()).toMatchObject({ fx_rates: 1, renormalized: 0 });
  });

  it('rounds converted values half away from zero, at import and when re-normalized', async () => {
    const company = '00000000-0000-4000-8000-0000000000ee';
    const [original, restated] = ['10000000-0000-4000-8000-0000000000e1', '10000000-0000-4000-8000-0000000000e2'];
    const imported = await importFiles({
      'fx_rates.csv': 'currency,year,usd_per_unit,source\nEUR,2021,1.5,Rounding test rate\n',
      'companies.csv': `company_id,name,country,lei,ticker,mic_code,isin\n${company},Rounding SA,France,,RND,XPAR,\n`,
      'documents.csv':
        `${DOCUMENT_HEADER}\n${original},${company},Report 2021,https://example.com/r1.pdf,2022-03-01,2021,processed\n` +
        `${restated},${company},Report 2022,https://example.com/r2.pdf,2023-03-01,2021,processed\n`,
      'revenues.csv': `company_id,document_id,reporting_period,value,currency\n${company},${original},2021,3,EUR\n${company},${restated},2021,5,EUR\n`,
    });
    expect(imported.code, imported.stderr).toBe(0);
    const { key } = await t.account({ credits: 1000 });
    const path = '/api/v1/revenues?ticker=RND&reporting_period=2021';
    // 3 × 1.5 = 4.5 → 5 and 5 × 1.5 = 7.5 → 8 (half to even would give 4 and 8).
    const first = await until(path, key, 200);
    expect(first.json<Point[]>().map((p) => [p.original_value, p.value])).toEqual([
      [3, 5],
      [5, 8],
    ]);
    const renormalized = await importFiles({
      'fx_rates.csv': 'currency,year,usd_per_unit,source\nEUR,2021,2.5,Rounding test rate\n',
    });
    expect(renormalized.json()).toMatchObject({ renormalized: 2 });
    // 3 × 2.5 = 7.5 → 8 and 5 × 2.5 = 12.5 → 13 (half to even would give 8 and 12).
    const deadline = Date.now() + 3_000;
    let values: number[] = [];
    while (Date.now() < deadline) {
      values = (await t.get(path, key)).json<Point[]>().map((p) => p.value);
      if (values[0] !== 5) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(values).toEqual([8, 13]);
  });

  it('keeps charging API calls while an import is reading and checking, before it applies', async () => {
    const { key, accountId } = await t.account({ credits: 100 });
    const importer = connect(t.database.config);
    const during: Array<[string, number, number | null]> = [];
    try {
      await importBundle(importer.kysely, FIXTURE_BUNDLE, BUNDLES, {
        onPhase: async (phase) => {
          if (phase === 'applying') return;
          // Each call is charged at once: the import takes the write lock only to apply.
          const res = await t.get(`/api/v1/revenues?ticker=BETA&reporting_period=${phase === 'reading' ? 2023 : 2024}`, key);
          during.push([phase, res.status, res.cost]);
        },
      });
    } finally {
      await importer.close();
    }
    expect(during).toEqual([
      ['reading', 200, 25],
      ['checking', 200, 25],
    ]);
    const { balance } = await t.db.kysely
      .selectFrom('accounts')
      .select('balance')
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    expect(Number(balance)).toBe(50);
  });

  it('shows a progress bar when the import runs on a terminal', async () => {
    const bundle = join(dir, 'tty-bundle');
    mkdirSync(bundle, { recursive: true });
    writeFileSync(join(bundle, 'documents.csv'), `${DOCUMENT_HEADER}\n${quietReport2023('processed')}\n`);
    // `script` gives the command a pseudo-terminal, as an operator's shell would.
    const result = await new Promise<{ code: number | null; out: string }>((resolve) => {
      execFile(
        'script',
        ['-qec', `${BIN} import ${bundle}`, '/dev/null'],
        { env: { PATH: process.env.PATH ?? '', CORPDATA_DATABASE: t.database.url, CORPDATA_SECRET: TEST_SECRET } },
        (error, stdout) => resolve({ code: error === null ? 0 : Number(error.code ?? 1), out: stdout }),
      );
    });
    expect(result.code, result.out).toBe(0);
    expect(result.out).toMatch(/█+/);
    expect(result.out).toContain('100%');
    expect(result.out).toContain('writing to the database');
    expect(result.out).toContain('"documents":1');
  });
});
