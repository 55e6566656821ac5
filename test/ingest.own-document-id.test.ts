import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpdata } from './support/cli.js';
import { dialects } from './support/dialects.js';
import { SPANISH_REPORTS, spanishIndexPage } from './support/esef-fixtures.js';
import { startApp, type TestApp } from './support/test-app.js';

const CATALOG = fileURLToPath(new URL('./fixtures/esef-bundle', import.meta.url));
const REPORTS = readdirSync(SPANISH_REPORTS)
  .filter((f) => f.endsWith('.json'))
  .map((f) => join(SPANISH_REPORTS, f));

/**
 * A bundle may hold a filing (an ESEF report, an SEC filing) under a document_id of its own: an
 * ingest of that filing finds it by its source and key and keeps it, figures and all, rather than
 * adding it again or failing.
 */
describe.each(dialects())('a filing a bundle holds under its own document_id (%s)', (dialect) => {
  let t: TestApp;
  let dir: string;
  const ENDESA_COMPANY = '20000000-0000-4000-8000-000000000001';
  const ENDESA_2024 = '549300LHK07F2CHV4X31-2024-12-31-ESEF-ES-0';
  const OWN_ID = '30000000-0000-4000-8000-000000000009';

  beforeAll(async () => {
    t = await startApp(dialect, { bundle: CATALOG });
    dir = mkdtempSync(join(tmpdir(), 'corpdata-own-id-'));
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is found by the ingest: one document, under the bundle’s id, with the report’s figures', async () => {
    const bundle = join(dir, 'bundle');
    mkdirSync(bundle);
    writeFileSync(
      join(bundle, 'documents.csv'),
      'document_id,company_id,title,source_url,published_on,reporting_period,status,source,source_key\n' +
        `${OWN_ID},${ENDESA_COMPANY},Endesa annual report 2024,https://example.com/endesa-2024,2025-05-08,2024,processed,esef,${ENDESA_2024}\n`,
    );
    const imported = await corpdata(['import', bundle], { CORPDATA_DATABASE: t.database.url, CORPDATA_DEMO: 'off' });
    expect(imported.code, imported.stderr).toBe(0);
    writeFileSync(join(dir, 'es-page.json'), JSON.stringify(spanishIndexPage()));
    const env = { CORPDATA_DATABASE: t.database.url, CORPDATA_DEMO: 'off' };
    const index = await corpdata(['ingest', 'esef-index', join(dir, 'es-page.json')], env);
    expect(index.code, index.stderr).toBe(0);
    const reports = await corpdata(['ingest', 'esef', ...REPORTS], env);
    expect(reports.code, reports.stderr).toBe(0);
    const endesa = await t.db.kysely
      .selectFrom('documents')
      .select(['document_id', 'source', 'source_key'])
      .where('company_id', '=', ENDESA_COMPANY)
      .execute();
    expect(endesa).toEqual([{ document_id: OWN_ID, source: 'esef', source_key: ENDESA_2024 }]);
    const figures = await t.db.kysely
      .selectFrom('revenue_points')
      .select(['document_id', 'reporting_period'])
      .where('company_id', '=', ENDESA_COMPANY)
      .execute();
    expect(figures.length).toBeGreaterThan(0);
    expect(figures.every((f) => f.document_id === OWN_ID)).toBe(true);
  });

  it('is found by the SEC ingest too: the 10-K stays the bundle’s document, with its figures', async () => {
    const MICROSOFT = '40000000-0000-4000-8000-000000000001';
    const TEN_K = '40000000-0000-4000-8000-0000000000d1';
    const bundle = join(dir, 'sec-bundle');
    mkdirSync(bundle);
    writeFileSync(
      join(bundle, 'companies.csv'),
      `company_id,name,country,lei,ticker,mic_code,isin,cik\n${MICROSOFT},Microsoft Corp,United States,,MSFT,XNYS,,0000789019\n`,
    );
    writeFileSync(
      join(bundle, 'documents.csv'),
      'document_id,company_id,title,source_url,published_on,reporting_period,status,form,accession\n' +
        `${TEN_K},${MICROSOFT},Microsoft 10-K 2018,https://example.com/msft-10k-2018,2018-08-03,2018,processed,10-K,0001564590-18-019062\n`,
    );
    const env = { CORPDATA_DATABASE: t.database.url, CORPDATA_DEMO: 'off' };
    const imported = await corpdata(['import', bundle], env);
    expect(imported.code, imported.stderr).toBe(0);
    const facts = fileURLToPath(new URL('./fixtures/filings/sec-companyfacts/CIK0000789019.json', import.meta.url));
    const ingested = await corpdata(['ingest', 'sec-companyfacts', facts], env);
    expect(ingested.code, ingested.stderr).toBe(0);
    const tenK = await t.db.kysely
      .selectFrom('documents')
      .select(['document_id', 'source', 'source_key'])
      .where('accession', '=', '0001564590-18-019062')
      .execute();
    expect(tenK).toEqual([{ document_id: TEN_K, source: 'sec', source_key: '0001564590-18-019062' }]);
    const figures = await t.db.kysely.selectFrom('revenue_points').select('point_id').where('document_id', '=', TEN_K).execute();
    expect(figures.length).toBeGreaterThan(0);
  });
});
