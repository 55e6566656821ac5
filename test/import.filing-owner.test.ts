import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CsvRecordParser } from '../src/ingest/sources/bundle/csv-records.js';
import { corpdata } from './support/cli.js';
import { dialects } from './support/dialects.js';
import { startApp, type TestApp } from './support/test-app.js';

const SP500 = fileURLToPath(new URL('./fixtures/filings/sp500', import.meta.url));
const APPLE_CIK = '320193';
const NEXTERA_CIK = '753308';

/** documents.csv as rows of fields, the header first. */
function readRows(path: string): string[][] {
  const parser = new CsvRecordParser();
  return [...parser.push(readFileSync(path, 'utf8')), ...parser.end()].map((r) => r.fields);
}

function writeRows(path: string, rows: string[][]): void {
  const field = (f: string) => (/[",\n\r]/.test(f) ? `"${f.replace(/"/g, '""')}"` : f);
  writeFileSync(path, `${rows.map((r) => r.map(field).join(',')).join('\n')}\n`);
}

/**
 * A bundle cannot give one company's SEC filing to another (design §10, §15): the filing's EDGAR
 * address names its filer's CIK and its accession number, and the database knows whose filing it
 * holds. Accession numbers swapped between two companies are refused naming `file:line`, also
 * in an empty database; so is a stored filing moved to another company.
 */
describe.each(dialects())('import checks whose filing a document is (%s)', (dialect) => {
  let source: TestApp;
  let target: TestApp;
  let dir: string;
  let exported: string;
  let header: string[];
  let body: string[][];
  /** The first Apple and the first NextEra filing of the export, by their row's index in `body`. */
  let apple: number;
  let nextera: number;
  const col = (name: string) => header.indexOf(name);
  const importInto = (app: TestApp, bundle: string) =>
    corpdata(['import', bundle], { CORPDATA_DATABASE: app.database.url, CORPDATA_DEMO: 'off' });
  const stored = async (app: TestApp) =>
    app.db.kysely.selectFrom('documents').select(['document_id', 'company_id', 'accession']).orderBy('document_id').execute();
  /** A copy of the export with documents.csv's rows edited. */
  const tampered = (name: string, edit: (rows: string[][]) => void): string => {
    const bundle = join(dir, name);
    cpSync(exported, bundle, { recursive: true });
    const rows = body.map((r) => [...r]);
    edit(rows);
    writeRows(join(bundle, 'documents.csv'), [header, ...rows]);
    return bundle;
  };
  const swap = (rows: string[][], a: number, b: number, columns: string[]) => {
    for (const c of columns) {
      const ra = rows[a] as string[];
      const rb = rows[b] as string[];
      [ra[col(c)], rb[col(c)]] = [rb[col(c)] as string, ra[col(c)] as string];
    }
  };

  beforeAll(async () => {
    [source, target] = await Promise.all([startApp(dialect, { bundle: null }), startApp(dialect, { bundle: null })]);
    dir = mkdtempSync(join(tmpdir(), 'corpdata-owner-'));
    const env = { CORPDATA_DATABASE: source.database.url, CORPDATA_DEMO: 'off' };
    expect((await corpdata(['ingest', 'sec-tickers', join(SP500, 'company_tickers_exchange.json')], env)).code).toBe(0);
    expect((await corpdata(['ingest', 'sec-companyfacts', join(SP500, 'companyfacts-sp500-cut.zip')], env)).code).toBe(0);
    exported = join(dir, 'export');
    const e = await corpdata(['export', exported], env);
    expect(e.code, e.stderr).toBe(0);
    [header = [], ...body] = readRows(join(exported, 'documents.csv'));
    const of = (cik: string) => body.findIndex((r) => (r[col('source_url')] ?? '').includes(`/edgar/data/${cik}/`));
    apple = of(APPLE_CIK);
    nextera = of(NEXTERA_CIK);
    expect(apple).toBeGreaterThanOrEqual(0);
    expect(nextera).toBeGreaterThanOrEqual(0);
  }, 120_000);
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await Promise.all([source.close(), target.close()]);
  });

  it('refuses two filings whose accession numbers were swapped between companies, in an empty database', async () => {
    const bundle = tampered('swapped', (rows) => swap(rows, apple, nextera, ['accession', 'source_key']));
    const r = await importInto(target, bundle);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    const at = (i: number) => `documents.csv:${i + 2}: source_url ${body[i]?.[col('source_url')]} is not the folder of accession`;
    expect(r.stderr).toContain(`${at(apple)} ${body[nextera]?.[col('accession')]}`);
    expect(r.stderr).toContain(`${at(nextera)} ${body[apple]?.[col('accession')]}`);
    expect(await stored(target)).toEqual([]);
  });

  it('refuses a filing put under another company, whose CIK its EDGAR folder is not, in an empty database', async () => {
    const bundle = tampered('moved', (rows) => swap(rows, apple, nextera, ['company_id']));
    const r = await importInto(target, bundle);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(
      `documents.csv:${apple + 2}: source_url ${body[apple]?.[col('source_url')]} is a filing of another CIK than 0000${NEXTERA_CIK}`,
    );
    expect(r.stderr).toContain(`documents.csv:${nextera + 2}:`);
    expect(await stored(target)).toEqual([]);
  });

  it('refuses one accession number under two companies within one bundle', async () => {
    const bundle = tampered('twice', (rows) => {
      const copy = [...(rows[apple] as string[])];
      copy[col('document_id')] = '77777777-7777-4777-8777-777777777777';
      copy[col('company_id')] = rows[nextera]?.[col('company_id')] ?? '';
      copy[col('source_key')] = '';
      copy[col('source')] = '';
      rows.push(copy);
    });
    const r = await importInto(target, bundle);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(
      `documents.csv:${body.length + 2}: accession ${body[apple]?.[col('accession')]} is another document's`,
    );
    expect(await stored(target)).toEqual([]);
  });

  it('imports the untouched export, then refuses moving a stored filing to another company even with its address made to fit', async () => {
    const good = await importInto(target, exported);
    expect(good.code, good.stderr).toBe(0);
    const before = await stored(target);
    const row = body[apple] as string[];
    const bundle = tampered('moved-stored', (rows) => {
      const moved = rows[apple] as string[];
      moved[col('company_id')] = rows[nextera]?.[col('company_id')] ?? '';
      moved[col('source_url')] = (row[col('source_url')] ?? '').replace(`/data/${APPLE_CIK}/`, `/data/${NEXTERA_CIK}/`);
    });
    const r = await importInto(target, bundle);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(
      `documents.csv:${apple + 2}: document ${row[col('document_id')]} (accession ${row[col('accession')]}) is a filing of company ${row[col('company_id')]} in the database, not of ${body[nextera]?.[col('company_id')]}`,
    );
    expect(await stored(target)).toEqual(before);
  });
});
