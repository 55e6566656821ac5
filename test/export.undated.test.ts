import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportBundle } from '../src/ingest/sources/bundle/export-bundle.js';
import { corpdata } from './support/cli.js';
import { BUNDLES } from './support/datasets.js';
import { dialects } from './support/dialects.js';
import { SPANISH_REPORTS } from './support/esef-fixtures.js';
import { startApp, type TestApp } from './support/test-app.js';

const CATALOG = fileURLToPath(new URL('./fixtures/esef-bundle', import.meta.url));
const first = dialects()[0] ?? 'sqlite';
const last = dialects()[dialects().length - 1] ?? 'sqlite';

/**
 * A document of unknown date (an ESEF report no index page lists, design §14.5) goes out with
 * `export` and back in with `import` as it is: nothing is lost, no date is made up.
 */
describe(`export → import of an undated document (${first} → ${last})`, () => {
  let source: TestApp;
  let target: TestApp;
  let dir: string;

  beforeAll(async () => {
    source = await startApp(first, { bundle: CATALOG });
    const ingested = await corpdata(['ingest', 'esef', join(SPANISH_REPORTS, 'endesa_2024.json')], {
      CORPDATA_DATABASE: source.database.url,
      CORPDATA_DEMO: 'off',
    });
    expect(ingested.code, ingested.stderr).toBe(0);
    dir = mkdtempSync(join(tmpdir(), 'corpdata-export-'));
    await exportBundle(source.db.kysely, join(dir, 'bundle'), BUNDLES);
    target = await startApp(last, { bundle: join(dir, 'bundle') });
  }, 120_000);
  afterAll(async () => {
    await source?.close();
    await target?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers the same figures, disclosed the year after their period, in both databases', async () => {
    const [a, b] = [source, target];
    const keys = [(await a.account({ credits: 1000 })).key, (await b.account({ credits: 1000 })).key];
    // Endesa (matched by its LEI), its 2024 report: no index page lists it here.
    const path = '/api/v1/revenues?ticker=ELE&mic_code=XMAD&reporting_period=2024';
    const [ra, rb] = await Promise.all([a.get(path, keys[0] as string), b.get(path, keys[1] as string)]);
    expect(ra.status, ra.text).toBe(200);
    expect(rb.text).toBe(ra.text);
    const records = JSON.parse(ra.text) as Array<{ year_of_disclosure: number; original_ccy: string }>;
    expect(records.map((r) => r.year_of_disclosure)).toEqual([2025]);
    const documents = await b.db.kysely.selectFrom('documents').select(['published_on', 'kind']).execute();
    expect(documents).toEqual([{ published_on: '', kind: 'financial' }]);
  });
});
