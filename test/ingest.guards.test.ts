import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestCli } from './support/cli.js';
import { dialects } from './support/dialects.js';
import { spanishIndexPage, spanishListing } from './support/esef-fixtures.js';
import { startApp, type TestApp } from './support/test-app.js';
import { writeZip } from './support/zip.js';

const SP500 = fileURLToPath(new URL('./fixtures/filings/sp500', import.meta.url));
const COMPANYFACTS = join(SP500, 'companyfacts-sp500-cut.zip');
const TICKERS = join(SP500, 'company_tickers_exchange.json');
const SPANISH = fileURLToPath(new URL('./fixtures/esef/xbrl-json/spanish-financials-etl', import.meta.url));
const ESEF_CATALOG = fileURLToPath(new URL('./fixtures/esef-bundle', import.meta.url));
const APPLE_2025 = '0000320193-25-000079';
const APPLE_2025_MAIN = 'https://www.sec.gov/Archives/edgar/data/320193/000032019325000079/aapl-20250927.htm';

/**
 * Ingests say what they did: a filings ingest on a catalog that holds none of its filers adds them
 * from their own identity (the warning is for filers that neither match nor give a figure: see
 * ingest.new-filers.test.ts), a submissions file links main documents only to its
 * own CIK's filings, and `ingest esef` reads a folder's subfolders and passes over, counting them,
 * the files that are not reports.
 */
describe.each(dialects())('ingest guards (%s)', (dialect) => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'corpdata-guards-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  describe('filings ingests on a catalog without their filers', () => {
    let t: TestApp;
    const run = (...args: string[]) => ingestCli(t.database.url, ...args);
    const points = async () => (await t.db.kysely.selectFrom('revenue_points').select('point_id').execute()).length;
    beforeAll(async () => {
      t = await startApp(dialect, { bundle: null });
    });
    afterAll(() => t.close());

    it('adds the filers of an empty catalog from their own identity (design §19.1), quietly; exits 0', async () => {
      const r = await run('sec-companyfacts', COMPANYFACTS);
      expect(r.code, r.stderr).toBe(0);
      expect(r.json()).toMatchObject({ filers: 2, companies_matched: 0, companies_added: 2 });
      expect(r.json<{ skipped: Record<string, number> }>().skipped.unknown_filer).toBeUndefined();
      expect(r.stderr).not.toContain('warning');
      expect(await points()).toBeGreaterThan(0);
      // No listing is made up: the companies hold their CIKs only, until a ticker file lists them.
      expect(await t.db.kysely.selectFrom('listings').select('ticker').execute()).toEqual([]);
    });

    it('finds the added companies by CIK once the ticker file comes, and adds nothing the second time', async () => {
      const before = await points();
      expect((await run('sec-tickers', TICKERS)).code).toBe(0);
      const known = await run('sec-companyfacts', COMPANYFACTS);
      expect(known.code, known.stderr).toBe(0);
      expect(known.json()).toMatchObject({ companies_matched: 2, companies_added: 0, data_points: 0 });
      expect(known.stderr).not.toContain('warning');
      expect(await points()).toBe(before);
    }, 120_000);

    it("links a main document only to a filing of the submissions file's own CIK", async () => {
      const apple = async () =>
        (
          await t.db.kysely
            .selectFrom('documents')
            .select('main_document_url')
            .where('accession', '=', APPLE_2025)
            .executeTakeFirst()
        )?.main_document_url;
      // NextEra's submissions file listing Apple's 10-K as its own (a co-registrant's listing, or a tampered file).
      const nextera = JSON.parse(readFileSync(join(SP500, 'submissions', 'CIK0000753308.json'), 'utf8'));
      nextera.filings.recent = { accessionNumber: [APPLE_2025], form: ['10-K'], primaryDocument: ['nee-20250927.htm'] };
      nextera.filings.files = [];
      const other = join(dir, `other-${dialect}`);
      mkdirSync(other);
      writeFileSync(join(other, 'CIK0000753308.json'), JSON.stringify(nextera));
      const r = await run('sec-submissions', other);
      expect(r.code, r.stderr).toBe(0);
      expect(r.json()).toMatchObject({
        filers: 1,
        filings: 1,
        main_documents_recorded: 0,
        skipped: { filing_of_other_company: 1 },
      });
      expect(await apple()).toBeNull();
      // Apple's own file, with NextEra's beside it in one zip: only Apple's link is taken.
      const zip = join(dir, `both-${dialect}.zip`);
      await writeZip(zip, {
        'CIK0000753308.json': JSON.stringify(nextera),
        'CIK0000320193.json': readFileSync(join(SP500, 'submissions', 'CIK0000320193.json')),
      });
      const both = await run('sec-submissions', zip);
      expect(both.code, both.stderr).toBe(0);
      expect(both.json<{ skipped: Record<string, number> }>().skipped.filing_of_other_company).toBe(1);
      expect(await apple()).toBe(APPLE_2025_MAIN);
    }, 90_000);
  });

  describe('ingest esef on a folder', () => {
    let t: TestApp;
    const run = (...args: string[]) => ingestCli(t.database.url, ...args);
    beforeAll(async () => {
      t = await startApp(dialect, { bundle: ESEF_CATALOG });
    });
    afterAll(() => t.close());

    it('reads subfolders and passes over, counting, an index page and stray files among the reports', async () => {
      const folder = join(dir, `reports-${dialect}`);
      mkdirSync(join(folder, 'es', 'energy'), { recursive: true });
      mkdirSync(join(folder, 'es', 'retail'), { recursive: true });
      copyFileSync(join(SPANISH, 'endesa_2024.json'), join(folder, 'es', 'energy', 'endesa_2024.json'));
      copyFileSync(join(SPANISH, 'inditex_fy2024.json'), join(folder, 'es', 'retail', 'inditex_fy2024.json'));
      writeFileSync(join(folder, 'index-page.json'), JSON.stringify(spanishIndexPage(spanishListing())));
      writeFileSync(join(folder, 'es', 'notes.txt'), 'downloaded 2026-03-02\n');
      const r = await run('esef', folder);
      expect(r.code, r.stderr).toBe(0);
      const summary = r.json<{ reports: number; data_points: number; skipped: Record<string, number> }>();
      expect(summary.reports).toBe(2);
      expect(summary.skipped.not_report).toBe(2);
      expect(summary.data_points).toBeGreaterThan(0);
    });

    it('passes over an index page in a zip of reports, and still refuses a report it cannot read', async () => {
      const zip = join(dir, `reports-${dialect}.zip`);
      await writeZip(zip, {
        'index-page.json': JSON.stringify(spanishIndexPage(spanishListing())),
        'endesa_2024.json': readFileSync(join(SPANISH, 'endesa_2024.json')),
      });
      const r = await run('esef', zip);
      expect(r.code, r.stderr).toBe(0);
      expect(r.json()).toMatchObject({ reports: 1, skipped: { not_report: 1 } });
      const broken = join(dir, `broken-${dialect}`);
      mkdirSync(join(broken, 'sub'), { recursive: true });
      writeFileSync(join(broken, 'sub', 'cut.json'), readFileSync(join(SPANISH, 'endesa_2024.json')).subarray(0, 2000));
      const refused = await run('esef', broken);
      expect(refused.code).not.toBe(0);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toContain(join(broken, 'sub', 'cut.json'));
    }, 90_000);
  });
});
