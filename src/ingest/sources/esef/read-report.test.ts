import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeZip } from '../../../../test/support/zip.js';
import { DEFAULT_INGEST_LIMITS } from '../../../config.js';
import type { EsefReport } from './esef-report.js';
import { readJsonInputs } from './json-inputs.js';
import { NotAReportError, readEsefReport } from './read-report.js';

const FIXTURES = fileURLToPath(new URL('../../../../test/fixtures/esef/xbrl-json', import.meta.url));
const SPANISH = join(FIXTURES, 'spanish-financials-etl');
const KAINOS = join(FIXTURES, 'isw-company-similarity', 'kainos_2022.json');
const REVENUE = 'ifrs-full:Revenue';
const CONTRACTS = 'ifrs-full:RevenueFromContractsWithCustomers';
const OWNERS = 'ifrs-full:ProfitLossAttributableToOwnersOfParent';
const PROFIT = 'ifrs-full:ProfitLoss';
const CONCEPTS = [REVENUE, CONTRACTS, OWNERS, PROFIT];

/** Files passed over by the last {@link readAll}: JSON that is no report, and other files. */
let passedOver: string[] = [];

/** Reads every report of `paths` (files, folders, zips) as the ingest will, passing over what is no report. */
async function readAll(paths: string[], concepts = CONCEPTS, passOver = true): Promise<EsefReport[]> {
  const reports: EsefReport[] = [];
  passedOver = [];
  const read = async (chunks: AsyncIterable<Buffer>, source: string, name: string) => {
    try {
      return await readEsefReport(chunks, source, name, concepts);
    } catch (error) {
      if (!passOver || !(error instanceof NotAReportError)) throw error;
      passedOver.push(source);
      return undefined;
    }
  };
  const inputs = readJsonInputs(paths, DEFAULT_INGEST_LIMITS, 'xBRL-JSON reports', read, (path) => passedOver.push(path));
  for await (const r of inputs) if (r !== undefined) reports.push(r);
  return reports;
}

const one = async (path: string, concepts = CONCEPTS): Promise<EsefReport> => {
  const [r] = await readAll([path], concepts, false);
  if (r === undefined) throw new Error('no report');
  return r;
};

/** `concept end value currency` of each fact: what the figures are, in one line each. */
const figures = (r: EsefReport, concept = REVENUE) =>
  r.facts
    .filter((f) => f.concept === concept)
    .map((f) => [f.id, f.start, f.end, f.reportingPeriod, f.value, f.currency, f.decimals]);

describe('reading xBRL-JSON reports (real ESEF filings)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'corpdata-esef-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const endesa = () => JSON.parse(readFileSync(join(SPANISH, 'endesa_2024.json'), 'utf8'));
  const write = (name: string, doc: unknown): string => {
    const path = join(dir, name);
    writeFileSync(path, typeof doc === 'string' ? doc : JSON.stringify(doc));
    return path;
  };

  it('reads a calendar-year report: OIM exclusive ends, the LEI, canonical values with .0', async () => {
    const r = await one(join(SPANISH, 'endesa_2024.json'));
    expect(r).toMatchObject({
      entity: 'scheme:549300LHK07F2CHV4X31',
      lei: '549300LHK07F2CHV4X31',
      documentType: 'https://xbrl.org/2021/xbrl-json',
      taxonomy: ['http://www.endesa.com/xbrl/2024/549300LHK07F2CHV4X31-2024-12-31.xsd'],
      language: 'es',
      periodEnd: '2024-12-31',
      factsRead: 39,
    });
    expect(figures(r)).toEqual([
      ['Tag3', '2024-01-01', '2024-12-31', 2024, 20_935_000_000, 'EUR', -6],
      ['Tag4', '2023-01-01', '2023-12-31', 2023, 25_070_000_000, 'EUR', -6],
    ]);
    expect(r.facts.find((f) => f.id === 'Tag3')?.text).toBe('20935000000.0');
    expect(figures(r, OWNERS).map((f) => f[4])).toEqual([1_888_000_000, 742_000_000]);
  });

  it('takes fiscal years ending in January (Inditex), March (Kainos) and June (Berkeley) to the year they end in', async () => {
    const inditex = await one(join(SPANISH, 'inditex_fy2024.json'));
    expect(inditex.periodEnd).toBe('2025-01-31');
    expect(figures(inditex)).toEqual([
      ['f-1', '2024-02-01', '2025-01-31', 2025, 38_632_000_000, 'EUR', -6],
      ['f-2', '2023-02-01', '2024-01-31', 2024, 35_947_000_000, 'EUR', -6],
    ]);
    const kainos = await one(KAINOS);
    expect(kainos).toMatchObject({ lei: '213800H2PQMIF3OVZY47', periodEnd: '2022-03-31', language: 'en', factsRead: 314 });
    expect(kainos.entityName).toBe('Kainos Group plc');
    expect(figures(kainos)).toEqual([
      ['fact-10', '2021-04-01', '2022-03-31', 2022, 302_632_000, 'GBP', -3],
      ['fact-11', '2020-04-01', '2021-03-31', 2021, 234_694_000, 'GBP', -3],
    ]);
    const berkeley = await one(join(SPANISH, 'berkeley_2024.json'));
    expect(berkeley.periodEnd).toBe('2024-06-30');
    expect(figures(berkeley, PROFIT)).toEqual([
      ['Tag8', '2023-07-01', '2024-06-30', 2024, -3_261_000, 'AUD', -3],
      ['Tag22', '2022-07-01', '2023-06-30', 2023, -1_373_000, 'AUD', -3],
    ]);
  });

  it('finds no revenue in a bank (Bankinter) nor an explorer (Berkeley), and still reads who filed', async () => {
    for (const [file, lei] of [
      ['bankinter_2024.json', 'VWMYAEQSTOPNV0SUGU82'],
      ['berkeley_2024.json', '213800JX3V4TPO7TCJ08'],
    ] as const) {
      const r = await one(join(SPANISH, file), [REVENUE, CONTRACTS]);
      expect(r.lei).toBe(lei);
      expect(r.facts).toEqual([]);
      expect(Object.values(r.skipped).every((n) => n === 0)).toBe(true);
    }
  });

  it('merges duplicate facts of one value and counts them; leaves dimensional facts out, counted', async () => {
    // Kainos tags each year's profit four times (income statement, equity statement, cash flows,
    // a note) and six more times on the components-of-equity axis.
    const kainos = await one(KAINOS, [PROFIT]);
    expect(figures(kainos, PROFIT).map((f) => [f[0], f[4]])).toEqual([
      ['fact-30', 35_768_000],
      ['fact-31', 39_601_000],
    ]);
    expect(kainos.facts[0]?.duplicates).toEqual(['fact-32', 'fact-180', 'fact-251']);
    expect(kainos.skipped).toMatchObject({ duplicate: 6, dimensional: 12, inconsistent_duplicates: 0 });
    const berkeley = await one(join(SPANISH, 'berkeley_2024.json'), [PROFIT]);
    expect(berkeley.skipped).toMatchObject({ duplicate: 2, dimensional: 2 });
  });

  it("skips a period's figure whose duplicates disagree, keeps the other years, and merges duplicates of one value", async () => {
    const doc = endesa();
    const tag3 = doc.facts.Tag3;
    doc.facts.X1 = { ...tag3, value: '20936000000.0' };
    // The same value tagged again with a finer precision: one fact, the more precise kept.
    doc.facts.X2 = { ...doc.facts.Tag4, value: '25070000000.0', decimals: -3 };
    const r = await one(write('disagree.json', doc), [REVENUE]);
    expect(figures(r)).toEqual([['X2', '2023-01-01', '2023-12-31', 2023, 25_070_000_000, 'EUR', -3]]);
    expect(r.facts[0]?.duplicates).toEqual(['Tag4']);
    expect(r.skipped).toMatchObject({ inconsistent_duplicates: 2, duplicate: 1 });
    // Three facts, two alike and one not: all three are the inconsistent figure, none a duplicate.
    doc.facts.X3 = { ...tag3 };
    const again = await one(write('disagree3.json', doc), [REVENUE]);
    expect(again.skipped).toMatchObject({ inconsistent_duplicates: 3, duplicate: 1 });
  });

  it('skips a figure tagged in thousands in one place and in millions in another: two values (design §14.3)', async () => {
    const doc = endesa();
    doc.facts.X4 = { ...doc.facts.Tag4, value: '25070123000.0', decimals: -3 };
    const r = await one(write('two-precisions.json', doc), [REVENUE]);
    expect(figures(r).map((f) => f[3])).toEqual([2024]);
    expect(r.skipped).toMatchObject({ inconsistent_duplicates: 2, duplicate: 0 });
  });

  it('takes the value as tagged whatever decimals says, a fraction rounded half away from zero', async () => {
    const doc = endesa();
    // decimals -3 on a value written in full: precision, never a factor of a thousand.
    doc.facts.Tag3 = { ...doc.facts.Tag3, value: '20935000000.5', decimals: 2 };
    doc.facts.Tag4 = { ...doc.facts.Tag4, value: '-25070000000.5', decimals: 'INF' };
    const r = await one(write('fraction.json', doc), [REVENUE]);
    expect(figures(r).map((f) => [f[4], f[6]])).toEqual([
      [20_935_000_001, 2],
      [-25_070_000_001, 'INF'],
    ]);
  });

  it('leaves out half years, non-currency units, nil values, other entities and values past 2^53, by reason; keeps instants and per-share values for selection', async () => {
    const doc = endesa();
    const base = doc.facts.Tag3;
    const dims = base.dimensions;
    doc.facts = {
      Tag3: base,
      I: { ...base, dimensions: { ...dims, period: '2025-01-01T00:00:00' } },
      H: { ...base, dimensions: { ...dims, period: '2024-01-01T00:00:00/2024-07-01T00:00:00' } },
      S: { ...base, dimensions: { ...dims, unit: 'xbrli:shares' } },
      P: { ...base, value: '1.2345', dimensions: { ...dims, unit: 'iso4217:EUR/xbrli:shares' } },
      N: { value: null, dimensions: { ...dims, period: '2022-01-01T00:00:00/2023-01-01T00:00:00' } },
      O: { ...base, dimensions: { ...dims, entity: 'scheme:959800GZESQUFLUH5402' } },
      B: { ...base, value: '123456789012345678.0', dimensions: { ...dims, period: '2021-01-01T00:00:00/2022-01-01T00:00:00' } },
      D: { ...base, dimensions: { ...dims, 'ifrs-full:SegmentsAxis': 'ele:GenerationMember' } },
    };
    const r = await one(write('skips.json', doc), [REVENUE]);
    // An instant is a balance (design §18.1) and EUR per share a per-share value (§18.2): which
    // figure, if any, they make is selection's to say, by the spec that reads the concept.
    expect(r.facts.map((f) => [f.id, f.instant, f.perShare])).toEqual([
      ['Tag3', false, false],
      ['I', true, false],
      ['P', false, true],
    ]);
    expect(r.facts.find((f) => f.id === 'P')?.value).toBe(1_234_500);
    expect(r.skipped).toEqual({
      dimensional: 1,
      not_annual: 1,
      not_currency: 1,
      nil: 1,
      other_entity: 1,
      value_too_large: 1,
      duplicate: 0,
      inconsistent_duplicates: 0,
    });
  });

  it('matches ifrs-full by its namespace whatever the prefix, and reads lei: entities and facts before documentInfo', async () => {
    const doc = endesa();
    const facts: Record<string, unknown> = {};
    for (const [id, f] of Object.entries(doc.facts as Record<string, { dimensions: Record<string, string> }>)) {
      const d = f.dimensions;
      facts[id] = {
        ...f,
        dimensions: { ...d, concept: d.concept?.replace('ifrs-full:', 'ifrs:'), entity: d.entity?.replace('scheme:', 'lei:') },
      };
    }
    const ns = {
      ...doc.documentInfo.namespaces,
      ifrs: doc.documentInfo.namespaces['ifrs-full'],
      lei: 'http://standards.iso.org/iso/17442',
    };
    const r = await one(write('prefixes.json', { facts, documentInfo: { ...doc.documentInfo, namespaces: ns } }), [REVENUE]);
    expect(r.lei).toBe('549300LHK07F2CHV4X31');
    expect(figures(r).map((f) => [f[0], f[4]])).toEqual([
      ['Tag3', 20_935_000_000],
      ['Tag4', 25_070_000_000],
    ]);
  });

  it('gives no LEI for an entity of another scheme or with bad check digits', async () => {
    const doc = endesa();
    doc.facts = {
      Tag3: { ...doc.facts.Tag3, dimensions: { ...doc.facts.Tag3.dimensions, entity: 'scheme:549300LHK07F2CHV4X32' } },
    };
    expect((await one(write('badlei.json', doc))).lei).toBeNull();
    doc.documentInfo.namespaces.scheme = 'http://www.sec.gov/CIK';
    doc.facts.Tag3.dimensions.entity = 'scheme:549300LHK07F2CHV4X31';
    expect((await one(write('cik.json', doc))).lei).toBeNull();
  });

  it('reads folders with their subfolders and zips of reports, naming each by file and entry', async () => {
    const reports = await readAll([SPANISH]);
    // The folder's licence and its metadata/filings.json (a list of index entries) are no reports.
    expect(passedOver).toEqual([join(SPANISH, 'LICENSE'), join(SPANISH, 'metadata', 'filings.json')]);
    expect(reports.map((r) => r.name)).toEqual([
      'amper_2024.json',
      'bankinter_2024.json',
      'berkeley_2024.json',
      'endesa_2024.json',
      'inditex_fy2024.json',
      'prosegur_2024.json',
    ]);
    expect(reports.map((r) => figures(r).map((f) => f[4]))).toEqual([
      [419_466_000, 369_384_000],
      [],
      [],
      [20_935_000_000, 25_070_000_000],
      [38_632_000_000, 35_947_000_000],
      [4_907_928_000, 4_310_029_000],
    ]);
    const zip = join(dir, 'reports.zip');
    await writeZip(zip, {
      'META-INF/reportPackage.json': '{"documentInfo":{"documentType":"https://xbrl.org/report-package/2023"}}',
      'kainos/kainos_2022.json': readFileSync(KAINOS),
      'endesa.json': readFileSync(join(SPANISH, 'endesa_2024.json')),
    });
    const zipped = await readAll([zip]);
    expect(zipped.map((r) => [r.source, r.lei])).toEqual([
      [`${zip}:kainos/kainos_2022.json`, '213800H2PQMIF3OVZY47'],
      [`${zip}:endesa.json`, '549300LHK07F2CHV4X31'],
    ]);
  });

  it('refuses what is not an xBRL-JSON report, naming the file and the fact', async () => {
    const doc = endesa();
    const cases: Array<[unknown, string]> = [
      ['[1, 2]', 'not a JSON object'],
      [{ facts: doc.facts }, 'no documentInfo'],
      [{ documentInfo: { documentType: 'https://xbrl.org/report-package/2023' }, facts: {} }, 'documentType'],
      [{ documentInfo: doc.documentInfo }, 'no facts'],
      [{ documentInfo: doc.documentInfo, facts: [] }, 'facts is not an object'],
      [{ documentInfo: doc.documentInfo, facts: { Tag3: 5 } }, 'fact Tag3 is not an object'],
      [{ documentInfo: doc.documentInfo, facts: { Tag3: { value: '1' } } }, 'fact Tag3 has no dimensions'],
      [
        { documentInfo: doc.documentInfo, facts: { Tag3: { ...doc.facts.Tag3, value: 20935000000 } } },
        'fact Tag3 (ifrs-full:Revenue): value 20935000000 is not a string',
      ],
      [
        { documentInfo: doc.documentInfo, facts: { Tag3: { ...doc.facts.Tag3, value: '20,935' } } },
        'fact Tag3 (ifrs-full:Revenue): value "20,935" is not a decimal number',
      ],
      [
        { documentInfo: doc.documentInfo, facts: { Tag3: { ...doc.facts.Tag3, decimals: 'millions' } } },
        'fact Tag3 (ifrs-full:Revenue): decimals "millions"',
      ],
      [
        {
          documentInfo: doc.documentInfo,
          facts: { Tag3: { ...doc.facts.Tag3, dimensions: { ...doc.facts.Tag3.dimensions, period: '2024' } } },
        },
        'fact Tag3 (ifrs-full:Revenue): period "2024" is not an OIM period',
      ],
      [JSON.stringify(doc).slice(0, 700), 'is not valid JSON'],
    ];
    for (const [i, [content, message]] of cases.entries()) {
      const path = write(`bad-${i}.json`, content);
      const error = await one(path).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, message).toBeInstanceOf(Error);
      // The first five are no report at all, which an ingest passes over; the rest are reports it cannot read.
      expect(error instanceof NotAReportError, message).toBe(i < 5);
      expect((error as Error).message).toContain(path);
      expect((error as Error).message).toContain(message);
    }
  });
});
