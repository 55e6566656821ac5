import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_INGEST_LIMITS } from '../src/config.js';
import { loadEsefIndex, readEsefFilers } from '../src/ingest/sources/esef/esef-filers.js';
import type { EsefIndexSummary } from '../src/ingest/sources/esef/ingest-index.js';
import { ingestCli } from './support/cli.js';
import { dialects } from './support/dialects.js';
import { startApp, type TestApp } from './support/test-app.js';
import { writeZip } from './support/zip.js';

const API = fileURLToPath(new URL('./fixtures/esef/filings-api/', import.meta.url));
const KAINOS = fileURLToPath(new URL('./fixtures/esef/xbrl-json/isw-company-similarity/kainos_2022.json', import.meta.url));
const GB = join(API, 'isw-company-similarity', 'gb_filings.json');
const EE_1 = join(API, 'xbrl-filings-api', 'estonian_2_pages_3_each__0.json');
const EE_2 = join(API, 'xbrl-filings-api', 'estonian_2_pages_3_each__1.json');
const CS = join(API, 'xbrl-filings-api', 'creditsuisse21en_by_id__0.json');
const CS_ENTITY = join(API, 'xbrl-filings-api', 'creditsuisse21en_by_id_entity__0.json');
const MIXED = join(API, 'pyesef', 'api_page.json');
const NL = join(API, 'etf-ai-cockpit', 'nl-latest-10.json');
const ERROR = join(API, 'xbrl-filings-api', 'bad_page_error__0.json');

/**
 * `bin/corpdata ingest esef-index` over recorded pages of filings.xbrl.org's index: the design §10
 * contract (counts on stdout, all-or-nothing, idempotent, a bad page named) on each database.
 */
describe.each(dialects())('ingest esef-index (%s)', (dialect) => {
  let t: TestApp;
  let dir: string;
  const run = (...paths: string[]) => ingestCli(t.database.url, 'esef-index', ...paths);
  const rows = () => t.db.kysely.selectFrom('esef_filings').selectAll().orderBy('fxo_id').execute();
  beforeAll(async () => {
    t = await startApp(dialect, { bundle: null });
    dir = mkdtempSync(join(tmpdir(), 'corpdata-esef-index-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t.close();
  });

  it('refuses an error response among good pages, naming it, and writes nothing', async () => {
    const r = await run(GB, ERROR);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(ERROR);
    expect(r.stderr).toContain('500 Unknown error');
    expect(await rows()).toEqual([]);
  });

  it('records every report of pages with and without included entities, pagination followed page by page', async () => {
    const r = await run(GB, EE_1, EE_2, CS, MIXED, NL);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json<EsefIndexSummary>()).toEqual({
      pages: 6,
      filings: 5 + 3 + 3 + 1 + 30 + 10,
      // The mixed page lists three of the GB page's filings again (without their entities).
      added: 49,
      updated: 0,
      unchanged: 0,
      without_json_url: expect.any(Number),
      // Four Ukrainian filers are identified by their EDRPOU code, not an LEI.
      without_lei: 4,
      skipped: { repeated_filing: 3, older_listing: 0 },
    });
    const all = await rows();
    expect(all).toHaveLength(49);
    expect(all.filter((x) => x.json_url === null).length).toBe(r.json<EsefIndexSummary>().without_json_url);
    expect(all.find((x) => x.fxo_id === '213800H2PQMIF3OVZY47-2022-03-31-ESEF-GB-0')).toEqual({
      fxo_id: '213800H2PQMIF3OVZY47-2022-03-31-ESEF-GB-0',
      filing_id: '3629',
      country: 'GB',
      lei: '213800H2PQMIF3OVZY47',
      entity_name: 'KAINOS GROUP PLC',
      period_end: '2022-03-31',
      date_added: '2022-08-02T00:00:00Z',
      processed: '2023-04-20T00:39:09.026903Z',
      report_url:
        'https://filings.xbrl.org/213800H2PQMIF3OVZY47/2022-03-31/ESEF/GB/0/213800H2PQMIF3OVZY47-2022-03-31/reports/213800H2PQMIF3OVZY47-2022-03-31-T01.xhtml',
      viewer_url:
        'https://filings.xbrl.org/213800H2PQMIF3OVZY47/2022-03-31/ESEF/GB/0/213800H2PQMIF3OVZY47-2022-03-31/reports/ixbrlviewer.html',
      json_url: 'https://filings.xbrl.org/213800H2PQMIF3OVZY47/2022-03-31/ESEF/GB/0/213800H2PQMIF3OVZY47-2022-03-31-T01.json',
      package_url: 'https://filings.xbrl.org/213800H2PQMIF3OVZY47/2022-03-31/ESEF/GB/0/213800H2PQMIF3OVZY47-2022-03-31.zip',
    });
    expect(all.find((x) => x.fxo_id === 'E58DKGMJYYYJLN8C3868-2021-12-31-ESEF-LU-0')).toMatchObject({
      lei: 'E58DKGMJYYYJLN8C3868',
      entity_name: null,
      json_url: null,
    });
  });

  it('changes nothing when the same pages come again, from a zip', async () => {
    const before = await rows();
    const zip = join(dir, 'pages.zip');
    await writeZip(
      zip,
      Object.fromEntries([GB, EE_1, EE_2, CS, MIXED, NL].map((f, i) => [`pages/page-${i + 1}.json`, readFileSync(f)])),
    );
    const r = await run(zip);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json<EsefIndexSummary>()).toMatchObject({ pages: 6, added: 0, updated: 0, unchanged: 49 });
    expect(await rows()).toEqual(before);
  });

  it('updates a report the index lists anew (a page with its entity, a reprocessed report), counting repeats', async () => {
    const changed = JSON.parse(readFileSync(GB, 'utf8'));
    changed.data[0].attributes.processed = '2024-01-02 03:04:05.000001';
    changed.data[0].attributes.viewer_url = '/213800H2PQMIF3OVZY47/2022-03-31/ESEF/GB/0/viewer.html';
    const folder = join(dir, 'again');
    mkdirSync(folder);
    writeFileSync(join(folder, 'gb.json'), JSON.stringify(changed));
    // The same Credit Suisse filing twice: the page that includes its entity adds the name.
    writeFileSync(join(folder, 'cs-1.json'), readFileSync(CS));
    writeFileSync(join(folder, 'cs-2.json'), readFileSync(CS_ENTITY));
    const r = await run(folder);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json<EsefIndexSummary>()).toMatchObject({
      pages: 3,
      filings: 7,
      added: 0,
      updated: 2,
      unchanged: 4,
      skipped: { repeated_filing: 1, older_listing: 0 },
    });
    const all = await rows();
    expect(all.find((x) => x.fxo_id === '213800H2PQMIF3OVZY47-2022-03-31-ESEF-GB-0')).toMatchObject({
      processed: '2024-01-02T03:04:05.000001Z',
      viewer_url: 'https://filings.xbrl.org/213800H2PQMIF3OVZY47/2022-03-31/ESEF/GB/0/viewer.html',
    });
    expect(all.find((x) => x.fxo_id === 'E58DKGMJYYYJLN8C3868-2021-12-31-ESEF-LU-0')?.entity_name).toBe(
      'CREDIT SUISSE INTERNATIONAL',
    );
    // An older listing of a report does not undo a newer one.
    const stale = await run(GB, CS);
    expect(stale.code, stale.stderr).toBe(0);
    expect(stale.json<EsefIndexSummary>()).toMatchObject({ updated: 0, unchanged: 5, skipped: { older_listing: 1 } });
    expect(await rows()).toEqual(all);
  });

  it('refuses a malformed page, naming the file and the filing, and writes nothing', async () => {
    const before = await rows();
    const broken = JSON.parse(readFileSync(NL, 'utf8'));
    broken.data[3].attributes.period_end = '2025-13-01';
    const path = join(dir, 'broken.json');
    writeFileSync(path, JSON.stringify(broken));
    const r = await run(GB, path);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`${path}: filing 4 (`);
    expect(r.stderr).toContain('period_end "2025-13-01" is not a date');
    const cut = join(dir, 'cut.json');
    writeFileSync(cut, readFileSync(EE_1).subarray(0, 1000));
    const c = await run(cut);
    expect(c.code).not.toBe(0);
    expect(c.stderr).toContain(cut);
    expect(await rows()).toEqual(before);
  });

  it('identifies a report read afterwards through the stored index: its fxo_id, date added, viewer and filer', async () => {
    const [kainos] = await readEsefFilers(
      [KAINOS],
      DEFAULT_INGEST_LIMITS,
      ['ifrs-full:Revenue'],
      await loadEsefIndex(t.db.kysely),
    );
    expect(kainos).toMatchObject({ lei: '213800H2PQMIF3OVZY47', name: 'KAINOS GROUP PLC', country: 'GB' });
    expect(kainos?.filings[0]).toMatchObject({
      key: '213800H2PQMIF3OVZY47-2022-03-31-ESEF-GB-0',
      publishedOn: '2022-08-02',
      // The viewer as the last listing gave it (the reprocessed report above).
      sourceUrl: 'https://filings.xbrl.org/213800H2PQMIF3OVZY47/2022-03-31/ESEF/GB/0/viewer.html',
    });
    expect(kainos?.filings[0]?.facts.map((f) => [f.reportingPeriod, f.value, f.currency])).toEqual([
      [2022, 302_632_000, 'GBP'],
      [2021, 234_694_000, 'GBP'],
    ]);
  });
});
