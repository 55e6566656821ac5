import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

const first = dialects()[0] ?? 'sqlite';
const last = dialects()[dialects().length - 1] ?? 'sqlite';

interface Identity {
  document_id: string;
  source: string;
  source_key: string;
}

/**
 * A document keeps where it came from through export → import (design §10.8, §15): the ESEF reports
 * ingested into one database are ESEF reports, under their fxo_id, in the database the export is
 * imported into (of the other dialect when both are configured), so their trace pages name the
 * same source and a later ingest of the same reports finds them instead of taking them for new.
 */
describe(`export → import keeps each document's source and key (${first} → ${last})`, () => {
  let source: TestApp;
  let target: TestApp;
  let dir: string;
  const env = (t: TestApp) => ({ CORPDATA_DATABASE: t.database.url, CORPDATA_DEMO: 'off' });
  const ingest = async (t: TestApp) => {
    const index = await corpdata(['ingest', 'esef-index', join(dir, 'es-page.json')], env(t));
    expect(index.code, index.stderr).toBe(0);
    const reports = await corpdata(['ingest', 'esef', ...REPORTS], env(t));
    expect(reports.code, reports.stderr).toBe(0);
    return reports.json<{ documents: number; data_points: number; reports_dated: number }>();
  };
  const identities = async (t: TestApp) =>
    (await t.db.kysely
      .selectFrom('documents')
      .select(['document_id', 'source', 'source_key'])
      .orderBy('document_id')
      .execute()) as Identity[];

  /** Imports a bundle of one documents.csv row (with source and key) into the target: refused, nothing changed. */
  const refusedDocument = async (name: string, row: string) => {
    const bundle = join(dir, name);
    mkdirSync(bundle);
    writeFileSync(
      join(bundle, 'documents.csv'),
      `document_id,company_id,title,source_url,published_on,reporting_period,status,source,source_key\n${row}\n`,
    );
    const before = await identities(target);
    const r = await corpdata(['import', bundle], env(target));
    expect(r.code).not.toBe(0);
    expect(await identities(target)).toEqual(before);
    return r.stderr;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'corpdata-export-sources-'));
    writeFileSync(join(dir, 'es-page.json'), JSON.stringify(spanishIndexPage()));
    source = await startApp(first, { bundle: CATALOG });
    await ingest(source);
    const exported = await corpdata(['export', join(dir, 'bundle')], env(source));
    expect(exported.code, exported.stderr).toBe(0);
    target = await startApp(last, { bundle: join(dir, 'bundle') });
  }, 120_000);
  afterAll(async () => {
    await source?.close();
    await target?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes each document’s source and key in documents.csv', () => {
    const [header, ...rows] = readFileSync(join(dir, 'bundle', 'documents.csv'), 'utf8')
      .trim()
      .split('\n');
    expect(header?.split(',').slice(-2)).toEqual(['source', 'source_key']);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.includes(',esef,'))).toBe(true);
  });

  it('imports them: the same documents under the same sources and keys', async () => {
    const before = await identities(source);
    expect(before.length).toBeGreaterThan(0);
    expect(before.every((d) => d.source === 'esef' && d.source_key.includes('-ESEF-ES-'))).toBe(true);
    expect(await identities(target)).toEqual(before);
  });

  it('gives the same public provenance, naming the ESEF source', async () => {
    const points = await source.db.kysely.selectFrom('revenue_points').select('point_id').orderBy('point_id').execute();
    expect(points.length).toBeGreaterThan(0);
    for (const { point_id } of points) {
      const [a, b] = await Promise.all([
        source.get(`/trace/${point_id}`, null, { accept: 'application/json' }),
        target.get(`/trace/${point_id}`, null, { accept: 'application/json' }),
      ]);
      expect(a.status).toBe(200);
      expect(a.json<{ filing: { source: { name: string } } }>().filing.source.name).toBe('esef');
      expect(b.text, point_id).toBe(a.text);
    }
  });

  it("refuses a bundle whose new document claims another document's source and key, and changes nothing", async () => {
    const [taken] = await identities(target);
    const owner = await target.db.kysely
      .selectFrom('documents')
      .select('company_id')
      .where('document_id', '=', taken?.document_id ?? '')
      .executeTakeFirstOrThrow();
    const stderr = await refusedDocument(
      'claim',
      `30000000-0000-4000-8000-000000000001,${owner.company_id},A copy,https://example.com/copy,2025-05-08,2024,processed,esef,${taken?.source_key}`,
    );
    expect(stderr).toContain(`documents.csv:2: source esef key ${taken?.source_key} is another document's`);
  });

  it('refuses a bundle that names another source or key for a known ESEF report, and changes nothing', async () => {
    const [known] = await identities(target);
    const row = await target.db.kysely
      .selectFrom('documents')
      .selectAll()
      .where('document_id', '=', known?.document_id ?? '')
      .executeTakeFirstOrThrow();
    const stderr = await refusedDocument(
      'rename',
      `${row.document_id},${row.company_id},A title,${row.source_url},${row.published_on},${row.reporting_period},processed,bundle,${row.document_id}`,
    );
    expect(stderr).toContain(
      `documents.csv:2: document ${row.document_id} is source esef key ${row.source_key} in the database, not source bundle key ${row.document_id}`,
    );
  });

  it('finds the reports again when they are ingested again: nothing new, nothing doubled', async () => {
    const before = await identities(target);
    const again = await ingest(target);
    expect(again).toMatchObject({ documents: 0, data_points: 0 });
    expect(await identities(target)).toEqual(before);
  });
});
