import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportBundle } from '../src/ingest/sources/bundle/export-bundle.js';
import { importBundle } from '../src/ingest/sources/bundle/import-bundle.js';
import { ingestCli } from './support/cli.js';
import { BUNDLES } from './support/datasets.js';
import { dialects } from './support/dialects.js';
import { PUBLIC_URL, startApp, type TestAccount, type TestApp } from './support/test-app.js';
import { writeZip } from './support/zip.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/filings/sp500', import.meta.url));
const SUBMISSIONS = join(FIXTURES, 'submissions');
/** Apple's 10-K for the fiscal year ended 27 September 2025, as the SEC's submissions name it. */
const APPLE_2025_MAIN = 'https://www.sec.gov/Archives/edgar/data/320193/000032019325000079/aapl-20250927.htm';
const APPLE_2025_INDEX = 'https://www.sec.gov/Archives/edgar/data/320193/000032019325000079/0000320193-25-000079-index.htm';

interface RevenueRecord {
  reporting_period: number;
  value: number;
  traceability_source_url: string;
}

/**
 * The SEC's companyfacts of large filers (FY2020–2025) and their submissions files through
 * `bin/corpdata ingest`: figures checked against the 10-Ks themselves, and each filing's main
 * document linked from the trace page beside the filing index.
 */
describe.each(dialects())('ingest SEC submissions beside the companyfacts of large filers (%s)', (dialect) => {
  let t: TestApp;
  let dir: string;
  let buyer: TestAccount;
  const run = (...args: string[]) => ingestCli(t.database.url, ...args);
  const documents = () =>
    t.db.kysely
      .selectFrom('documents')
      .select(['document_id', 'accession', 'main_document_url'])
      .orderBy('document_id')
      .execute();
  beforeAll(async () => {
    t = await startApp(dialect, { bundle: null });
    dir = mkdtempSync(join(tmpdir(), 'corpdata-submissions-'));
    buyer = await t.account({ credits: 10_000 });
    expect((await run('sec-tickers', join(FIXTURES, 'company_tickers_exchange.json'))).code).toBe(0);
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t.close();
  });

  it("serves Apple's fiscal 2025 as its latest period, from the bulk companyfacts", async () => {
    const r = await run('sec-companyfacts', join(FIXTURES, 'companyfacts-sp500-cut.zip'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.json<{ filers: number; companies_matched: number }>()).toMatchObject({ filers: 2, companies_matched: 2 });
    const res = await t.get('/api/v1/revenues?ticker=AAPL&reporting_period=-1', buyer.key);
    expect(res.status).toBe(200);
    expect(res.json<RevenueRecord[]>().map((p) => [p.reporting_period, p.value])).toEqual([[2025, 416_161_000_000]]);
  });

  it('refuses a malformed submissions file, naming it, and writes nothing', async () => {
    const before = await documents();
    const zip = join(dir, 'submissions.zip');
    const good = readFileSync(join(SUBMISSIONS, 'CIK0000320193.json'));
    const broken = JSON.parse(readFileSync(join(SUBMISSIONS, 'CIK0000753308.json'), 'utf8'));
    broken.filings.recent.primaryDocument[2] = '../../../etc/passwd';
    await writeZip(zip, { 'CIK0000320193.json': good, 'CIK0000753308.json': JSON.stringify(broken) });
    const r = await run('sec-submissions', zip);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('CIK0000753308.json');
    expect(r.stderr).toContain('filing 3');
    const truncated = join(dir, 'CIK0000320193.json');
    writeFileSync(truncated, good.subarray(0, 500));
    const t2 = await run('sec-submissions', SUBMISSIONS, truncated);
    expect(t2.code).not.toBe(0);
    expect(t2.stderr).toContain(truncated);
    expect(await documents()).toEqual(before);
  });

  it("records each ingested filing's main document, linked from the trace page beside the filing index", async () => {
    const r = await run('sec-submissions', SUBMISSIONS);
    expect(r.code, r.stderr).toBe(0);
    const summary = r.json<{ filers: number; main_documents_recorded: number; skipped: Record<string, number> }>();
    expect(summary.filers).toBe(2);
    const filed = (await documents()).filter((d) => d.accession !== null);
    expect(summary.main_documents_recorded).toBe(filed.filter((d) => d.main_document_url !== null).length);
    expect(summary.main_documents_recorded).toBeGreaterThan(10);
    expect(summary.skipped.filing_not_ingested).toBeGreaterThan(0);
    const apple = filed.find((d) => d.accession === '0000320193-25-000079');
    expect(apple?.main_document_url).toBe(APPLE_2025_MAIN);

    const [point] = (await t.get('/api/v1/revenues?ticker=AAPL&reporting_period=2025', buyer.key)).json<RevenueRecord[]>();
    const path = (point?.traceability_source_url ?? '').replace(PUBLIC_URL, '');
    const page = await (await fetch(t.url + path)).text();
    expect(page).toContain(`href="${APPLE_2025_INDEX}"`);
    expect(page).toContain(`href="${APPLE_2025_MAIN}"`);
    const json = await fetch(t.url + path, { headers: { accept: 'application/json' } });
    expect(await json.json()).toMatchObject({
      filing: { accession: '0000320193-25-000079', main_document_url: APPLE_2025_MAIN },
      document: { source_url: APPLE_2025_INDEX },
    });
  });

  it('changes nothing when the same submissions are ingested again, from a zip', async () => {
    const before = await documents();
    const zip = join(dir, 'again.zip');
    await writeZip(zip, {
      'CIK0000320193.json': readFileSync(join(SUBMISSIONS, 'CIK0000320193.json')),
      'CIK0000753308.json': readFileSync(join(SUBMISSIONS, 'CIK0000753308.json')),
    });
    const r = await run('sec-submissions', zip);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json<{ main_documents_recorded: number; unchanged: number }>()).toMatchObject({ main_documents_recorded: 0 });
    expect(await documents()).toEqual(before);
  });

  it('keeps main documents through an export and import', async () => {
    const out = join(dir, 'export');
    await exportBundle(t.db.kysely, out, BUNDLES);
    const copy = await startApp(dialect, { bundle: null });
    try {
      await importBundle(copy.db.kysely, out, BUNDLES);
      const read = (app: TestApp) =>
        app.db.kysely.selectFrom('documents').select(['document_id', 'main_document_url']).orderBy('document_id').execute();
      expect(await read(copy)).toEqual(await read(t));
    } finally {
      await copy.close();
    }
  });
});
