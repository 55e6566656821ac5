import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BUNDLE_DIR } from '../src/cli/open-database.js';
import { BUNDLE_FILE_NAMES } from '../src/ingest/sources/bundle/bundle-files.js';
import { exportBundle } from '../src/ingest/sources/bundle/export-bundle.js';
import { corpdata } from './support/cli.js';
import { BUNDLES } from './support/datasets.js';
import { dialects } from './support/dialects.js';
import { FIXTURE_BUNDLE, startApp, type TestApp } from './support/test-app.js';

const PERIODS = [2020, 2021, 2022, 2023, 2024, 2025, 2026, -1, -2, -3, -4, -5, -6];

const first = dialects()[0] ?? 'sqlite';
const last = dialects()[dialects().length - 1] ?? 'sqlite';

/**
 * Export from one database, import into a fresh one (of the other dialect when both are
 * configured: the move from SQLite to PostgreSQL, and back), and compare every answer byte for byte.
 */
describe.each([
  ['fixture', first, last, FIXTURE_BUNDLE],
  ['fixture', last, first, FIXTURE_BUNDLE],
  ['demo', first, last, DEMO_BUNDLE_DIR],
] as const)('export → import round trip of the %s bundle (%s → %s)', (_name, from, to, bundle) => {
  let source: TestApp;
  let target: TestApp;
  let dir: string;
  let sourceKey: string;
  let targetKey: string;

  beforeAll(async () => {
    source = await startApp(from, { bundle });
    dir = mkdtempSync(join(tmpdir(), 'corpdata-export-'));
    await exportBundle(source.db.kysely, join(dir, 'bundle'), BUNDLES);
    target = await startApp(to, { bundle: join(dir, 'bundle') });
    sourceKey = (await source.account({ credits: 10_000_000 })).key;
    targetKey = (await target.account({ credits: 10_000_000 })).key;
  }, 120_000);
  afterAll(async () => {
    await source?.close();
    await target?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it(`gives byte-identical revenue answers for every company and period (${from} → ${to})`, async () => {
    const companies = await source.db.kysely.selectFrom('companies').select('company_id').orderBy('company_id').execute();
    const withDocuments = new Set(
      (await source.db.kysely.selectFrom('documents').select('company_id').distinct().execute()).map((r) => r.company_id),
    );
    let compared = 0;
    const statuses = new Map<number, number>();
    const compare = async (company_id: string) => {
      // A company without documents answers 404 whatever the period: two periods prove it.
      for (const period of withDocuments.has(company_id) ? PERIODS : [2023, -1]) {
        const path = `/api/v1/revenues?company_id=${company_id}&reporting_period=${period}`;
        const [a, b] = await Promise.all([source.get(path, sourceKey), target.get(path, targetKey)]);
        expect(b.status, path).toBe(a.status);
        expect(b.text, path).toBe(a.text);
        statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
      }
      compared++;
    };
    // A few companies at a time: the demo has thousands, hundreds of them with figures.
    for (let i = 0; i < companies.length; i += 8) {
      await Promise.all(companies.slice(i, i + 8).map((c) => compare(c.company_id)));
    }
    expect(compared).toBe(companies.length);
    // Figures were compared, not only refusals.
    expect(statuses.get(200)).toBeGreaterThan(0);
    expect(statuses.get(404)).toBeGreaterThan(0);
    expect([...statuses.keys()].filter((s) => s !== 200 && s !== 204 && s !== 404)).toEqual([]);
  }, 300_000);

  it('gives the same company list and searches', async () => {
    for (const path of [
      '/api/v1/companies/list',
      '/api/v1/companies/search?query=siemens',
      '/api/v1/companies/search?query=beta',
      '/api/v1/companies/search?query=TWIN',
    ]) {
      const [a, b] = await Promise.all([source.get(path, sourceKey), target.get(path, targetKey)]);
      expect(b.text, path).toBe(a.text);
    }
  });

  it('exports the export unchanged (a fixed point)', async () => {
    await exportBundle(target.db.kysely, join(dir, 'again'), BUNDLES);
    // The core files and every dataset's own (revenues.csv among them, which every export writes).
    const files = [...BUNDLE_FILE_NAMES, ...BUNDLES.map((b) => b.file)].filter((f) => existsSync(join(dir, 'bundle', f)));
    expect(files).toContain('revenues.csv');
    for (const file of files) {
      expect(readFileSync(join(dir, 'again', file), 'utf8'), file).toBe(readFileSync(join(dir, 'bundle', file), 'utf8'));
    }
    expect(BUNDLES.filter((b) => existsSync(join(dir, 'again', b.file)) !== existsSync(join(dir, 'bundle', b.file)))).toEqual([]);
  });
});

describe.each(dialects())('bin/corpdata export (%s)', (dialect) => {
  it('writes a bundle and prints its counts', async () => {
    const t = await startApp(dialect);
    const dir = mkdtempSync(join(tmpdir(), 'corpdata-export-cli-'));
    const r = await corpdata(['export', join(dir, 'out')], { CORPDATA_DATABASE: t.database.url, CORPDATA_DEMO: 'off' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toEqual({ fx_rates: 8, companies: 9, listings: 2, documents: 13, revenues: 14 });
    const again = await corpdata(['import', join(dir, 'out')], { CORPDATA_DATABASE: t.database.url });
    expect(again.code, again.stderr).toBe(0);
    expect(again.json()).toMatchObject({ companies: 9, revenues: 14, renormalized: 0 });
    rmSync(dir, { recursive: true, force: true });
    await t.close();
  }, 60_000);
});
