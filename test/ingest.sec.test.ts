import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportBundle } from '../src/ingest/sources/bundle/export-bundle.js';
import { importBundle } from '../src/ingest/sources/bundle/import-bundle.js';
import { corpdata, ingestCli } from './support/cli.js';
import { BUNDLES } from './support/datasets.js';
import { dialects } from './support/dialects.js';
import { PUBLIC_URL, startApp, type TestAccount, type TestApp } from './support/test-app.js';
import { writeZip } from './support/zip.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/filings', import.meta.url));
const FACTS = join(FIXTURES, 'sec-companyfacts');
const TICKERS = join(FIXTURES, 'sec-tickers/company_tickers_exchange.json');
const FSDS = join(FIXTURES, 'sec-fsds/2009q3-trimmed.zip');
const MICROSOFT_2020_INDEX = 'https://www.sec.gov/Archives/edgar/data/789019/000156459020034944/0001564590-20-034944-index.htm';

interface RevenueRecord {
  year_of_disclosure: number;
  reporting_period: number;
  value: number;
  original_value: number | null;
  original_ccy: string;
  document_id: string;
  traceability_source_url: string;
}

/** One companyfacts file holding a single revenue fact of Microsoft (to make later filings). */
function microsoftFiling(accn: string, form: string, filed: string, val: number): string {
  const fact = { start: '2019-07-01', end: '2020-06-30', val, accn, fy: 2021, fp: 'FY', form, filed };
  return JSON.stringify({
    cik: 789019,
    entityName: 'MICROSOFT CORP',
    facts: { 'us-gaap': { Revenues: { label: 'Revenues', units: { USD: [fact] } } } },
  });
}

/**
 * Ingesting SEC filings through `bin/corpdata ingest`, checked against the figures a reader finds
 * in the 10-Ks themselves (not against this code's own output), and through the HTTP API.
 */
describe.each(dialects())('ingest SEC filings (%s)', (dialect) => {
  let t: TestApp;
  let dir: string;
  let buyer: TestAccount;
  const run = (...args: string[]) => ingestCli(t.database.url, ...args);
  /** Everything filed that the database holds, to show that a refused run wrote nothing. */
  const snapshot = async () => ({
    companies: await t.db.kysely.selectFrom('companies').select(['company_id', 'cik', 'name']).orderBy('company_id').execute(),
    documents: await t.db.kysely.selectFrom('documents').selectAll().orderBy('document_id').execute(),
    points: await t.db.kysely.selectFrom('revenue_points').selectAll().orderBy('point_id').execute(),
  });
  const revenues = async (query: string) => {
    const res = await t.get(`/api/v1/revenues?${query}`, buyer.key);
    expect(res.status, res.text).toBe(200);
    return res.json<RevenueRecord[]>();
  };
  /**
   * The server learns of an ingest made by another process through its version watcher (every
   * 50 ms here), and answers from what it had until then: wait until `query` answers `count` points.
   */
  const seen = (query: string, count: number) =>
    expect
      .poll(
        async () => {
          const res = await t.get(`/api/v1/revenues?${query}`, buyer.key);
          return res.status === 200 ? res.json<RevenueRecord[]>().length : res.status;
        },
        { timeout: 10_000 },
      )
      .toBe(count);
  const pointsOf = (cik: string, end: string) =>
    t.db.kysely
      .selectFrom('revenue_points as p')
      .innerJoin('companies as c', 'c.company_id', 'p.company_id')
      .innerJoin('documents as d', 'd.document_id', 'p.document_id')
      .select(['p.original_value', 'p.concept', 'd.published_on', 'd.form', 'd.accession'])
      .where('c.cik', '=', cik)
      .where('p.period_end', '=', end)
      .orderBy('d.published_on')
      .execute();

  beforeAll(async () => {
    t = await startApp(dialect, { bundle: null });
    dir = mkdtempSync(join(tmpdir(), 'corpdata-sec-'));
    buyer = await t.account({ credits: 10_000 });
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t.close();
  });

  it('adds the SEC filers of the ticker file as companies with their CIK and listings', async () => {
    const r = await run('sec-tickers', TICKERS);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ rows: 17, ciks: 10, companies_added: 10, listings_added: 7, companies_matched: 0 });
    const again = await run('sec-tickers', TICKERS);
    expect(again.json()).toMatchObject({ companies_added: 0, listings_added: 0, companies_matched: 10 });
    // The server's catalog follows the ingest within its version watcher's interval.
    const search = async () => (await t.get('/api/v1/companies/search?query=MSFT', buyer.key)).text;
    await expect.poll(search, { timeout: 10_000 }).toContain('MICROSOFT CORP');
  });

  it('never takes a goods-only concept for revenue', async () => {
    const r = await run('sec-companyfacts', join(FIXTURES, 'goods-only'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ filers: 1, companies_matched: 1, facts: 0, data_points: 0, documents: 0 });
    expect((await t.get('/api/v1/revenues?ticker=AMZN&reporting_period=-1', buyer.key)).status).toBe(404);
  });

  it('ingests companyfacts files: the figures of the 10-Ks, an unknown filer added from its own identity', async () => {
    const r = await run('sec-companyfacts', FACTS);
    expect(r.code, r.stderr).toBe(0);
    const summary = r.json<{ filers: number; companies_matched: number; data_points: number; skipped: Record<string, number> }>();
    expect(summary).toMatchObject({ filers: 8, companies_matched: 7, companies_added: 1 });
    // Lemonade (CIK 1691421) is in no ticker file here: it becomes a company of its CIK and name (design §19.1).
    expect(summary.skipped.unknown_filer).toBeUndefined();
    expect(
      await t.db.kysely.selectFrom('companies').select(['name', 'country']).where('cik', '=', '0001691421').execute(),
    ).toEqual([{ name: 'Lemonade, Inc.', country: null }]);

    // Microsoft 10-K for the fiscal year ended 30 June 2020: total revenue $143,015 million.
    const ms = await revenues('ticker=MSFT&reporting_period=2020');
    expect(ms).toHaveLength(1);
    expect(ms[0]).toMatchObject({
      value: 143_015_000_000,
      original_ccy: 'USD',
      year_of_disclosure: 2020,
      reporting_period: 2020,
    });
    // Amazon 10-K 2020: total net sales $386,064 million (not net product sales alone). Amazon was
    // asked for before this ingest: its answer of then may stand until the server sees the ingest.
    await seen('ticker=AMZN&reporting_period=2020', 1);
    expect((await revenues('ticker=AMZN&reporting_period=2020')).map((p) => p.value)).toEqual([386_064_000_000]);
    // Snowflake's fiscal 2025 ended 31 January 2025: reporting period 2025, $3,626,396 thousand.
    const snow = await revenues('ticker=SNOW&reporting_period=-1');
    expect(snow.map((p) => [p.reporting_period, p.value])).toEqual([[2025, 3_626_396_000]]);
    expect((await revenues('ticker=SNOW&reporting_period=-2')).map((p) => [p.reporting_period, p.value])).toEqual([
      [2024, 2_806_489_000],
    ]);
    // Alphabet 10-K 2020: revenues $182,527 million.
    expect((await revenues('ticker=GOOGL&reporting_period=2020')).map((p) => p.value)).toEqual([182_527_000_000]);
    // An IFRS 20-F filer: ifrs-full:Revenue, USD 43,862,372 for 2024.
    expect((await revenues('ticker=LPA&reporting_period=2024')).map((p) => p.value)).toEqual([43_862_372]);
  });

  it('keeps the figure as first reported and each restatement, and no repeated comparative', async () => {
    // Boeing's 2016 revenue: $94,571 million in the 2016 10-K, $93,496 million (restated for the
    // new revenue standard) in the 2018 10-K.
    expect((await pointsOf('0000012927', '2016-12-31')).map((p) => [Number(p.original_value), p.published_on])).toEqual([
      [94_571_000_000, '2017-02-08'],
      [93_496_000_000, '2019-02-08'],
    ]);
    // Ford's 2011 revenue: $136,264 million, restated to $135,605 million in the 2013 10-K.
    expect((await pointsOf('0000037996', '2011-12-31')).map((p) => [Number(p.original_value), p.published_on])).toEqual([
      [136_264_000_000, '2012-02-21'],
      [135_605_000_000, '2014-02-18'],
    ]);
    // Alphabet's 2017 revenue ($110,855 million) is repeated by the 2018, 2019 and 2020 10-Ks, under
    // two concepts: one data point, from the filing that first reported it.
    expect(await pointsOf('0001652044', '2017-12-31')).toEqual([
      {
        original_value: expect.anything(),
        concept: 'us-gaap:Revenues',
        published_on: '2018-02-06',
        form: '10-K',
        accession: '0001652044-18-000007',
      },
    ]);
  });

  it('changes nothing when the same input is ingested again', async () => {
    const before = await snapshot();
    const r = await run('sec-companyfacts', FACTS, join(FIXTURES, 'companyfacts.zip'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ documents: 0, data_points: 0, restatements: 0 });
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a truncated JSON file, naming it, and writes nothing, not even the good files', async () => {
    const folder = join(dir, 'truncated');
    mkdirSync(folder);
    writeFileSync(
      join(folder, 'CIK0000789019.json'),
      microsoftFiling('0000789019-21-000001', '10-K/A', '2021-03-01', 143_000_000_000),
    );
    const text = readFileSync(join(FACTS, 'CIK0001640147.json'), 'utf8');
    writeFileSync(join(folder, 'CIK0001640147.json'), text.slice(0, text.length / 2));
    const before = await snapshot();
    const r = await run('sec-companyfacts', folder);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(join(folder, 'CIK0001640147.json'));
    expect(r.stderr).toContain('is not valid JSON');
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a zip with a corrupt entry, naming it, and writes nothing', async () => {
    const zip = readFileSync(join(FIXTURES, 'companyfacts.zip'));
    // Damage the compressed bytes of the first entry (after its 30-byte header and name).
    for (let i = 200; i < 400; i++) zip[i] = (zip[i] ?? 0) ^ 0x5a;
    const path = join(dir, 'corrupt.zip');
    writeFileSync(path, zip);
    const before = await snapshot();
    const r = await run('sec-companyfacts', join(FACTS, 'CIK0001997711.json'), path);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`${path}:CIK0000789019.json`);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a data set without num.txt, and a fractional value, naming them, and writes nothing', async () => {
    const before = await snapshot();
    const noNum = join(dir, 'no-num.zip');
    await writeZip(noNum, { 'sub.txt': 'adsh\tcik\tname\tform\tfiled\n' });
    const r = await run('sec-fsds', FSDS, noNum);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`${noNum}: holds no num.txt`);
    const fractional = join(dir, 'fractional.zip');
    const sub = 'adsh\tcik\tname\tform\tfiled\n0001002638-09-000001\t1002638\tOPEN TEXT CORP\t10-K\t20090801\n';
    const num =
      'adsh\ttag\tversion\tddate\tqtrs\tuom\tsegments\tcoreg\tvalue\tfootnote\n0001002638-09-000001\tRevenues\tus-gaap/2009\t20090630\t4\tUSD\t\t\t785665000.5000\t\n';
    await writeZip(fractional, { 'sub.txt': sub, 'num.txt': num });
    const f = await run('sec-fsds', fractional);
    expect(f.code).not.toBe(0);
    expect(f.stderr).toContain(`${fractional}:num.txt:2: value 785665000.5000 of us-gaap:Revenues is not a whole number`);
    expect(await snapshot()).toEqual(before);
  });

  it('ingests a Financial Statement Data Set: annual values only, once', async () => {
    const r = await run('sec-fsds', FSDS);
    expect(r.code, r.stderr).toBe(0);
    // From one 10-K, every dataset read from filings: three years of each amount, two or three
    // balances at fiscal-year ends (design §18.1), three diluted EPS.
    expect(r.json()).toMatchObject({
      documents: 1,
      data_points: 30,
      restatements: 0,
      datasets: {
        revenues: { data_points: 3 },
        'net-income': { data_points: 3 },
        'eps-diluted': { data_points: 3 },
        'total-assets': { data_points: 2 },
        cash: { data_points: 3 },
      },
    });
    // Open Text's 10-K for the fiscal year ended 30 June 2009: total revenues $785,665 thousand.
    expect(await pointsOf('0001002638', '2009-06-30')).toEqual([
      {
        original_value: expect.anything(),
        concept: 'us-gaap:Revenues',
        published_on: '2009-08-21',
        form: '10-K',
        accession: '0001193125-09-179839',
      },
    ]);
    expect(Number((await pointsOf('0001002638', '2009-06-30'))[0]?.original_value)).toBe(785_665_000);
    expect((await run('sec-fsds', FSDS)).json()).toMatchObject({ documents: 0, data_points: 0 });
  });

  it('serves a restatement after the first-reported figure; a later filing repeating a value adds nothing', async () => {
    const folder = join(dir, 'amendments');
    mkdirSync(folder);
    writeFileSync(
      join(folder, 'CIK0000789019.json'),
      microsoftFiling('0000789019-21-000001', '10-K/A', '2021-03-01', 143_000_000_000),
    );
    const r = await run('sec-companyfacts', folder);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ documents: 1, data_points: 1, restatements: 1 });
    writeFileSync(
      join(folder, 'CIK0000789019.json'),
      microsoftFiling('0000789019-21-000002', '10-K/A', '2021-04-01', 143_000_000_000),
    );
    expect((await run('sec-companyfacts', folder)).json()).toMatchObject({ data_points: 0, skipped: { repeated_value: 1 } });
    await seen('ticker=MSFT&reporting_period=-1', 2);
    const ms = await revenues('ticker=MSFT&reporting_period=-1');
    expect(ms.map((p) => [p.reporting_period, p.year_of_disclosure, p.value])).toEqual([
      [2020, 2020, 143_015_000_000],
      [2020, 2021, 143_000_000_000],
    ]);
  });

  it("shows a filed figure's concept, form, accession, filed date, period and filing link to anyone, never its value", async () => {
    const [first] = await revenues('ticker=MSFT&reporting_period=2020');
    const path = (first?.traceability_source_url ?? '').replace(PUBLIC_URL, '');
    const res = await fetch(t.url + path);
    expect(res.status).toBe(200);
    const page = await res.text();
    for (const text of [
      'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax',
      '10-K',
      '0001564590-20-034944',
      '2020-07-31',
      '2019-07-01 to 2020-06-30',
      `href="${MICROSOFT_2020_INDEX}"`,
    ]) {
      expect(page).toContain(text);
    }
    expect(page).not.toMatch(/143,?015,?000,?000/);
    // The same as JSON provenance (design §11.3): concept, period and filing for anyone.
    const json = await fetch(t.url + path, { headers: { accept: 'application/json' } });
    expect(json.status).toBe(200);
    const body = (await json.json()) as { filing: object };
    expect(body).toMatchObject({
      concept: 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax',
      reporting_period: 2020,
      period: { start: '2019-07-01', end: '2020-06-30' },
      filing: { form: '10-K', accession: '0001564590-20-034944', filed_on: '2020-07-31' },
      document: { source_url: MICROSOFT_2020_INDEX, published_on: '2020-07-31' },
      values_included: false,
      values: null,
    });
    // SEC has no fields of its own beyond these: its filing carries no `source` (an ESEF figure's does).
    expect(Object.keys(body.filing)).toEqual(['form', 'accession', 'filed_on', 'main_document_url']);
  });

  it('exports filed figures with their concept, period and filing, and imports them back unchanged', async () => {
    const out = join(dir, 'export');
    await exportBundle(t.db.kysely, out, BUNDLES);
    const copy = await startApp(dialect, { bundle: null });
    try {
      await importBundle(copy.db.kysely, out, BUNDLES);
      const read = async (app: TestApp) => ({
        companies: await app.db.kysely.selectFrom('companies').select(['company_id', 'cik']).orderBy('company_id').execute(),
        // A copy's documents are served when it is imported (design §20.2): their time is its own.
        documents: (await app.db.kysely.selectFrom('documents').selectAll().orderBy('document_id').execute()).map(
          ({ served_at: _, ...d }) => d,
        ),
        points: await app.db.kysely.selectFrom('revenue_points').selectAll().orderBy('point_id').execute(),
      });
      const original = await read(t);
      expect(original.points.length).toBeGreaterThan(50);
      expect(await read(copy)).toEqual(original);
    } finally {
      await copy.close();
    }
  });
});

describe.each(dialects())('ingest SEC companyfacts.zip (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(dialect, { bundle: null });
  });
  afterAll(() => t.close());

  it("reads SEC's bulk zip entry by entry, giving the same figures as the files", async () => {
    const env = { CORPDATA_DATABASE: t.database.url, CORPDATA_DEMO: 'off' };
    // company_tickers.json names no exchange: a filer it alone knows is skipped, never added without a listing.
    const plain = await corpdata(['ingest', 'sec-tickers', join(FIXTURES, 'sec-tickers/company_tickers.json')], env);
    expect(plain.json()).toMatchObject({ companies_added: 0, skipped: { no_listing: 12 } });
    expect((await corpdata(['ingest', 'sec-tickers', TICKERS], env)).code).toBe(0);
    const r = await corpdata(['ingest', 'sec-companyfacts', join(FIXTURES, 'companyfacts.zip')], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ filers: 3, companies_matched: 3 });
    const account = await t.account({ credits: 1000 });
    // The server sees the ingests through its version watcher: until then MSFT is unknown to it.
    const msft = () => t.get('/api/v1/revenues?ticker=MSFT&reporting_period=2020', account.key);
    await expect.poll(async () => (await msft()).status, { timeout: 10_000 }).toBe(200);
    expect((await msft()).json<RevenueRecord[]>().map((p) => p.value)).toEqual([143_015_000_000]);
    const copy = join(mkdtempSync(join(tmpdir(), 'corpdata-sec-zip-')), 'CIK0000789019.json');
    copyFileSync(join(FACTS, 'CIK0000789019.json'), copy);
    expect((await corpdata(['ingest', 'sec-companyfacts', copy], env)).json()).toMatchObject({ data_points: 0 });
  });
});
