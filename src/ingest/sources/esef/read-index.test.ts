import { createReadStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEsefIndexPage } from './read-index.js';

const API = fileURLToPath(new URL('../../../../test/fixtures/esef/filings-api', import.meta.url));
const read = (path: string) => readEsefIndexPage(createReadStream(path) as AsyncIterable<Buffer>, path);

describe('reading pages of the filings.xbrl.org index', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'corpdata-esef-index-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a page with include=entity: the entity name and LEI, absolute URLs, the next page and the count', async () => {
    const page = await read(join(API, 'isw-company-similarity', 'gb_filings.json'));
    expect(page.count).toBe(2470);
    expect(page.next).toBe(
      'https://filings.xbrl.org/api/filings?page%5Bsize%5D=5&filter%5Bcountry%5D=GB&include=entity&page%5Bnumber%5D=2',
    );
    expect(page.entries).toHaveLength(5);
    const root = 'https://filings.xbrl.org/213800H2PQMIF3OVZY47/2022-03-31/ESEF/GB/0';
    expect(page.entries[0]).toEqual({
      fxoId: '213800H2PQMIF3OVZY47-2022-03-31-ESEF-GB-0',
      filingId: '3629',
      country: 'GB',
      lei: '213800H2PQMIF3OVZY47',
      entityName: 'KAINOS GROUP PLC',
      periodEnd: '2022-03-31',
      dateAdded: '2022-08-02T00:00:00Z',
      processed: '2023-04-20T00:39:09.026903Z',
      reportUrl: `${root}/213800H2PQMIF3OVZY47-2022-03-31/reports/213800H2PQMIF3OVZY47-2022-03-31-T01.xhtml`,
      viewerUrl: `${root}/213800H2PQMIF3OVZY47-2022-03-31/reports/ixbrlviewer.html`,
      jsonUrl: `${root}/213800H2PQMIF3OVZY47-2022-03-31-T01.json`,
      packageUrl: `${root}/213800H2PQMIF3OVZY47-2022-03-31.zip`,
    });
    expect(page.entries.every((e) => e.entityName !== null && e.lei !== null)).toBe(true);
  });

  it('reads a page without includes: the LEI from the entity link, none for an entity of another scheme', async () => {
    const page = await read(join(API, 'pyesef', 'api_page.json'));
    expect(page.entries).toHaveLength(30);
    expect(page.count).toBe(40);
    expect(page.entries.every((e) => e.entityName === null)).toBe(true);
    const ua = page.entries.find((e) => e.fxoId === 'EDRPOU-32033791-2020-12-31-UAIFRS-UA-0');
    expect(ua).toMatchObject({ country: 'UA', lei: null, dateAdded: '2023-11-09T18:26:01.957777Z', packageUrl: null });
    const se = page.entries.find((e) => e.fxoId === '549300CSLHPO6Y1AZN37-2021-12-31-ESEF-SE-1');
    expect(se).toMatchObject({ lei: '549300CSLHPO6Y1AZN37', country: 'SE', jsonUrl: null });
    expect(new Set(page.entries.map((e) => e.country))).toEqual(new Set(['PL', 'UA', 'CY', 'GB', 'SE', 'NO']));
  });

  it('reads a report without xBRL-JSON (null json_url), with and without its entity included', async () => {
    for (const file of ['creditsuisse21en_by_id__0.json', 'creditsuisse21en_by_id_entity__0.json']) {
      const page = await read(join(API, 'xbrl-filings-api', file));
      expect(page.next).toBeNull();
      expect(page.entries).toEqual([
        expect.objectContaining({
          fxoId: 'E58DKGMJYYYJLN8C3868-2021-12-31-ESEF-LU-0',
          lei: 'E58DKGMJYYYJLN8C3868',
          jsonUrl: null,
          viewerUrl: null,
          reportUrl: null,
          periodEnd: '2021-12-31',
        }),
      ]);
    }
    const included = await read(join(API, 'xbrl-filings-api', 'creditsuisse21en_by_id_entity__0.json'));
    expect(included.entries[0]?.entityName).toBe('CREDIT SUISSE INTERNATIONAL');
  });

  it('follows pagination: page 1 names page 2, whose filings continue the list', async () => {
    const first = await read(join(API, 'xbrl-filings-api', 'estonian_2_pages_3_each__0.json'));
    const second = await read(join(API, 'xbrl-filings-api', 'estonian_2_pages_3_each__1.json'));
    expect(first.next).toContain('page%5Bnumber%5D=2');
    expect(second.next).toContain('page%5Bnumber%5D=3');
    expect([...first.entries, ...second.entries].map((e) => e.country)).toEqual(Array(6).fill('EE'));
    const ids = [...first.entries, ...second.entries].map((e) => e.fxoId);
    expect(new Set(ids).size).toBe(6);
    // Validation messages are included too: only entities name a filer.
    expect(first.entries[0]).toMatchObject({ lei: '529900JG015JC10LED24', entityName: expect.any(String) });
  });

  it('reads the newer report packages (.xbri) and -1-en JSON names', async () => {
    const page = await read(join(API, 'etf-ai-cockpit', 'nl-latest-10.json'));
    expect(page.entries[0]).toMatchObject({
      fxoId: '7245003GZ2696Y0W1X57-2026-03-31-ESEF-NL-0',
      periodEnd: '2026-03-31',
      packageUrl: 'https://filings.xbrl.org/7245003GZ2696Y0W1X57/2026-03-31/ESEF/NL/0/7245003GZ2696Y0W1X57-2026-03-31.xbri',
      jsonUrl: 'https://filings.xbrl.org/7245003GZ2696Y0W1X57/2026-03-31/ESEF/NL/0/7245003GZ2696Y0W1X57-2026-03-31-1-en.json',
    });
  });

  it('refuses error responses and what is not a page of filings, naming the file and the filing', async () => {
    const gb = JSON.parse(readFileSync(join(API, 'isw-company-similarity', 'gb_filings.json'), 'utf8'));
    const withFirst = (attributes: Record<string, unknown>) => ({
      ...gb,
      data: [gb.data[0], { ...gb.data[1], attributes: { ...gb.data[1].attributes, ...attributes } }],
    });
    const cases: Array<[string, unknown, string]> = [
      [
        '500.json',
        readFileSync(join(API, 'xbrl-filings-api', 'bad_page_error__0.json'), 'utf8'),
        'error response of the filings index: 500 Unknown error',
      ],
      [
        '400.json',
        readFileSync(join(API, 'xbrl-filings-api', 'unknown_filter_error__0.json'), 'utf8'),
        '400 Invalid filters querystring parameter. FilingSchema has no attribute abcdef',
      ],
      ['array.json', '[]', 'not a JSON object'],
      ['nodata.json', { links: gb.links }, 'no data'],
      ['entity.json', { data: [gb.included[0]] }, 'filing 1 is not a filing resource'],
      ['nofxo.json', withFirst({ fxo_id: null }), 'filing 2 has no fxo_id'],
      [
        'period.json',
        withFirst({ period_end: '31/03/2022' }),
        'filing 2 (5493003DJ1G01IMQ7S28-2022-12-31-ESEF-GB-0): period_end "31/03/2022"',
      ],
      ['added.json', withFirst({ date_added: 'yesterday' }), 'date_added "yesterday" is not a timestamp'],
      ['url.json', withFirst({ viewer_url: 'javascript:alert(1)' }), 'viewer_url "javascript:alert(1)" is not a URL'],
      ['cut.json', JSON.stringify(gb).slice(0, 900), 'is not valid JSON'],
    ];
    for (const [name, content, message] of cases) {
      const path = join(dir, name);
      writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
      const error = await read(path).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, name).toBeInstanceOf(Error);
      expect((error as Error).message).toContain(path);
      expect((error as Error).message).toContain(message);
    }
  });
});
