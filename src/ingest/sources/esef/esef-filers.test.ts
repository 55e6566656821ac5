import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spanishIndexPage } from '../../../../test/support/esef-fixtures.js';
import { DEFAULT_INGEST_LIMITS } from '../../../config.js';
import type { EsefFilingTable } from '../../../db/schema.js';
import { type EsefReadCounts, esefIndexLookup, readEsefFilers } from './esef-filers.js';
import { esefFilingRow } from './ingest-index.js';
import { readEsefIndexPage } from './read-index.js';

const FIXTURES = fileURLToPath(new URL('../../../../test/fixtures/esef/xbrl-json', import.meta.url));
const SPANISH = join(FIXTURES, 'spanish-financials-etl');
const KAINOS = join(FIXTURES, 'isw-company-similarity', 'kainos_2022.json');
const CONCEPTS = ['ifrs-full:Revenue', 'ifrs-full:RevenueFromContractsWithCustomers'];

/** The index rows of the Spanish reports: their index page read as `ingest esef-index` reads it. */
async function spanishIndex(): Promise<EsefFilingTable[]> {
  const body = Buffer.from(JSON.stringify(spanishIndexPage()));
  const page = await readEsefIndexPage(
    (async function* () {
      yield body;
    })(),
    'es-page.json',
  );
  return page.entries.map(esefFilingRow);
}

describe('ESEF reports as filers and their filings', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'corpdata-esef-filers-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("identifies each report by the index's fxo_id, dated when the index added it, linked to its viewer", async () => {
    const filers = await readEsefFilers([SPANISH], DEFAULT_INGEST_LIMITS, CONCEPTS, esefIndexLookup(await spanishIndex()));
    expect(filers.map((f) => [f.lei, f.name, f.country, f.filings.length])).toEqual([
      ['959800GZESQUFLUH5402', 'AMPER, S.A.', 'ES', 1],
      ['VWMYAEQSTOPNV0SUGU82', 'BANKINTER SOCIEDAD ANONIMA', 'ES', 1],
      ['213800JX3V4TPO7TCJ08', 'BERKELEY ENERGIA LIMITED', 'ES', 1],
      ['549300LHK07F2CHV4X31', 'ENDESA SA', 'ES', 1],
      ['549300TTCXZOGZM2EY83', 'INDUSTRIA DE DISEÑO TEXTIL, S.A.', 'ES', 1],
      ['549300N94L4D5NDBFG97', 'PROSEGUR COMPAÑIA DE SEGURIDAD, S.A.', 'ES', 1],
    ]);
    const endesa = filers[3]?.filings[0];
    expect(endesa).toMatchObject({
      key: '549300LHK07F2CHV4X31-2024-12-31-ESEF-ES-0',
      fxoId: '549300LHK07F2CHV4X31-2024-12-31-ESEF-ES-0',
      periodEnd: '2024-12-31',
      language: 'es',
      publishedOn: '2025-05-08',
      sourceUrl:
        'https://filings.xbrl.org/549300LHK07F2CHV4X31/2024-12-31/ESEF/ES/0/549300LHK07F2CHV4X31-2024-12-31-0-es/reports/ixbrlviewer.html',
      jsonUrl: 'https://filings.xbrl.org/549300LHK07F2CHV4X31/2024-12-31/ESEF/ES/0/549300LHK07F2CHV4X31-2024-12-31-0-es.json',
    });
    expect(endesa?.facts.map((f) => [f.id, f.value])).toEqual([
      ['Tag3', 20_935_000_000],
      ['Tag4', 25_070_000_000],
    ]);
    // Inditex's report ends 31 January 2025: the index lists it under that period end.
    expect(filers[4]?.filings[0]?.fxoId).toBe('549300TTCXZOGZM2EY83-2025-01-31-ESEF-ES-0');
  });

  it('keys a report the index does not list by LEI, period end and language, undated and unlinked', async () => {
    const [kainos] = await readEsefFilers([KAINOS], DEFAULT_INGEST_LIMITS, CONCEPTS, esefIndexLookup(await spanishIndex()));
    expect(kainos).toMatchObject({ lei: '213800H2PQMIF3OVZY47', name: 'Kainos Group plc', country: null });
    expect(kainos?.filings[0]).toMatchObject({
      key: '213800H2PQMIF3OVZY47-2022-03-31-en',
      fxoId: null,
      publishedOn: null,
      sourceUrl: null,
    });
  });

  it("gathers a filer's reports of several years into one filer, and counts a report given twice", async () => {
    // Endesa's 2023 report, as its 2024 one gives the 2023 figure, restated in the 2024 report.
    const earlier = JSON.parse(readFileSync(join(SPANISH, 'endesa_2024.json'), 'utf8'));
    const texts = Object.entries(earlier.facts as Record<string, { dimensions: { language?: string } }>).filter(
      ([, f]) => f.dimensions.language !== undefined,
    );
    earlier.facts = {
      ...Object.fromEntries(
        texts.map(([id, f]) => [
          id,
          { ...f, dimensions: { ...f.dimensions, period: '2023-01-01T00:00:00/2024-01-01T00:00:00' } },
        ]),
      ),
      Tag3: { ...earlier.facts.Tag4, value: '25100000000.0' },
      Tag4: {
        ...earlier.facts.Tag4,
        dimensions: { ...earlier.facts.Tag4.dimensions, period: '2022-01-01T00:00:00/2023-01-01T00:00:00' },
      },
    };
    writeFileSync(join(dir, 'endesa_2023.json'), JSON.stringify(earlier));
    copyFileSync(join(SPANISH, 'endesa_2024.json'), join(dir, 'endesa_2024.json'));
    const counts: EsefReadCounts = { reports: 0, repeated_report: 0, not_report: 0 };
    const filers = await readEsefFilers(
      [dir, join(SPANISH, 'endesa_2024.json')],
      DEFAULT_INGEST_LIMITS,
      CONCEPTS,
      esefIndexLookup([]),
      counts,
    );
    expect(counts).toEqual({ reports: 3, repeated_report: 1, not_report: 0 });
    expect(filers).toHaveLength(1);
    expect(filers[0]?.filings.map((f) => [f.key, f.facts.map((x) => [x.end, x.value])])).toEqual([
      [
        '549300LHK07F2CHV4X31-2023-12-31-es',
        [
          ['2023-12-31', 25_100_000_000],
          ['2022-12-31', 25_070_000_000],
        ],
      ],
      [
        '549300LHK07F2CHV4X31-2024-12-31-es',
        [
          ['2024-12-31', 20_935_000_000],
          ['2023-12-31', 25_070_000_000],
        ],
      ],
    ]);
  });

  it("finds a report by the index's JSON file name first, and a refiled report's latest listing by LEI and period end", async () => {
    const rows = await spanishIndex();
    const endesa = rows.find((r) => r.lei === '549300LHK07F2CHV4X31') as EsefFilingTable;
    const refiled = {
      ...endesa,
      fxo_id: '549300LHK07F2CHV4X31-2024-12-31-ESEF-ES-1',
      processed: '2025-06-01T00:00:00Z',
      json_url: null,
    };
    const lookup = esefIndexLookup([...rows, refiled]);
    expect(lookup.find('549300LHK07F2CHV4X31-2024-12-31-0-es.json', null, null)?.fxo_id).toBe(endesa.fxo_id);
    expect(lookup.find('endesa.json', '549300LHK07F2CHV4X31', '2024-12-31')?.fxo_id).toBe(refiled.fxo_id);
    expect(lookup.find('endesa.json', '549300LHK07F2CHV4X31', '2023-12-31')).toBeUndefined();
    // A file named as another filer's JSON is not taken for that filer's report.
    expect(lookup.find('549300LHK07F2CHV4X31-2024-12-31-0-es.json', '213800H2PQMIF3OVZY47', '2022-03-31')).toBeUndefined();
  });
});
