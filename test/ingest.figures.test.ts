import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revenues } from '../src/datasets/revenues/revenues-dataset.js';
import { conceptsOfAll } from '../src/ingest/core/figure-spec.js';
import { ingestFilings } from '../src/ingest/filings/ingest-filings.js';
import type { Filer, FilingSource } from '../src/ingest/filings/source.js';
import { ingestTickers } from '../src/ingest/sources/sec/ingest-tickers.js';
import { readCompanyFacts } from '../src/ingest/sources/sec/read-companyfacts.js';
import { secSource } from '../src/ingest/sources/sec/sec-source.js';
import { dialects } from './support/dialects.js';
import { createTestNetIncomeTable, testNetIncome } from './support/net-income-figures.js';
import { startApp, type TestApp } from './support/test-app.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/filings', import.meta.url));
const TICKERS = join(FIXTURES, 'sec-tickers/company_tickers_exchange.json');
const MICROSOFT = join(FIXTURES, 'sec-companyfacts/CIK0000789019.json');
const SNOWFLAKE = join(FIXTURES, 'sec-companyfacts/CIK0001640147.json');
const SPECS = [revenues.figures ?? expect.unreachable('revenues reads its figures from filings'), testNetIncome];

/** A source of annual reports identified by LEI or by name and country, as ESEF's are. */
const reports: FilingSource = {
  name: 'test-reports',
  isAnnualForm: (form) => form === 'AR',
  document: (filer, fact) => {
    const h = createHash('sha256').update(`test-report:${fact.accession}`).digest('hex');
    return {
      documentId: `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`,
      title: `${filer.name}: annual report ${fact.accession}`,
      sourceUrl: `https://reports.example/${fact.accession}`,
      form: null,
      accession: null,
    };
  },
};

async function* filers(list: Filer[]): AsyncGenerator<Filer> {
  yield* list;
}

/**
 * One filings pipeline for every figure spec and every source (design §10, §15): a second spec
 * (net income, declared as design §17 will) gets its figures from the same SEC files by the same
 * rules, on a real database; a source without CIKs is matched by LEI or name and country.
 */
describe.each(dialects())('filings pipeline with two figure specs (%s)', (dialect) => {
  let t: TestApp;
  const netIncome = async (cik: string, period: number) =>
    (
      await sql<{ original_value: number | string; accession: string | null; source: string; source_key: string }>`
      select p.original_value, d.accession, d.source, d.source_key from test_net_income_points p
      join companies c on c.company_id = p.company_id join documents d on d.document_id = p.document_id
      where c.cik = ${cik} and p.reporting_period = ${period} order by d.published_on`.execute(t.db.kysely)
    ).rows.map((r) => [Number(r.original_value), r.accession, r.source, r.source_key]);
  const ingestSec = () =>
    ingestFilings(t.db.kysely, 'sec', secSource, SPECS, readCompanyFacts([MICROSOFT, SNOWFLAKE], conceptsOfAll(SPECS)));

  beforeAll(async () => {
    t = await startApp(dialect);
    await createTestNetIncomeTable(t.db.kysely);
    await ingestTickers(t.db.kysely, TICKERS);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('gives the second spec the 10-Ks’ NetIncomeLoss, losses and restatements included, beside unchanged revenues', async () => {
    const summary = await ingestSec();
    const ni = summary.datasets['net-income'];
    const rev = summary.datasets.revenues;
    expect(ni?.data_points).toBeGreaterThan(0);
    expect(rev?.data_points).toBeGreaterThan(0);
    expect(summary.data_points).toBe((ni?.data_points ?? 0) + (rev?.data_points ?? 0));
    expect(summary.restatements).toBe((ni?.restatements ?? 0) + (rev?.restatements ?? 0));
    // Microsoft's 10-Ks for fiscal 2018–2020, each its own year's figure, never restated.
    expect(await netIncome('0000789019', 2018)).toEqual([
      [16_571_000_000, '0001564590-18-019062', 'sec', '0001564590-18-019062'],
    ]);
    expect(await netIncome('0000789019', 2019)).toEqual([
      [39_240_000_000, '0001564590-19-027952', 'sec', '0001564590-19-027952'],
    ]);
    expect(await netIncome('0000789019', 2020)).toEqual([
      [44_281_000_000, '0001564590-20-034944', 'sec', '0001564590-20-034944'],
    ]);
    // Fiscal 2016 as first reported, then restated by the 2018 10-K (ASC 606 adopted in full).
    expect((await netIncome('0000789019', 2016)).map((r) => r.slice(0, 2))).toEqual([
      [16_798_000_000, '0001193125-16-662209'],
      [20_539_000_000, '0001564590-18-019062'],
    ]);
    // Snowflake's losses, fiscal years ending 31 January.
    for (const [period, value] of [
      [2021, -539_102_000],
      [2023, -796_705_000],
      [2025, -1_285_640_000],
    ] as const) {
      expect((await netIncome('0001640147', period)).map((r) => r[0])).toEqual([value]);
    }
    const revenue = await t.db.kysely
      .selectFrom('revenue_points as p')
      .innerJoin('companies as c', 'c.company_id', 'p.company_id')
      .select('p.original_value')
      .where('c.cik', '=', '0000789019')
      .where('p.reporting_period', '=', 2020)
      .execute();
    expect(revenue.map((r) => Number(r.original_value))).toEqual([143_015_000_000]);
    const concepts = await sql<{ concept: string }>`select distinct concept from test_net_income_points order by concept`.execute(
      t.db.kysely,
    );
    expect(concepts.rows.map((r) => r.concept)).toEqual(['us-gaap:NetIncomeLoss']);
  });

  it('adds nothing when the same files are ingested again', async () => {
    const again = await ingestSec();
    expect(again).toMatchObject({ documents: 0, data_points: 0, restatements: 0 });
    expect(again.datasets['net-income']).toMatchObject({ data_points: 0, restatements: 0 });
  });

  it('takes a source’s filers by LEI or by name and country, records the LEI, and keys documents by source', async () => {
    const gammaLei = '213800GAMMA000000X12';
    // Each report gives fiscal 2023: the second one, a year later, restates it.
    const report = (accession: string, filed: string, concept: string, value: number) => ({
      concept,
      start: '2023-01-01',
      end: '2023-12-31',
      value,
      unit: 'GBP',
      accession,
      form: 'AR',
      filed,
    });
    const summary = await ingestFilings(
      t.db.kysely,
      'reports',
      reports,
      SPECS,
      filers([
        {
          name: 'GAMMA HOLDINGS PLC',
          country: 'United Kingdom',
          lei: gammaLei,
          source: 'gamma.json',
          facts: [
            report('gamma-2023', '2024-03-20', 'ifrs-full:ProfitLossAttributableToOwnersOfParent', -5_000_000),
            report('gamma-2023', '2024-03-20', 'ifrs-full:ProfitLoss', -5_200_000),
            report('gamma-2023', '2024-03-20', 'ifrs-full:Revenue', 80_000_000),
            report('gamma-2024', '2025-03-18', 'ifrs-full:ProfitLossAttributableToOwnersOfParent', -5_100_000),
          ],
        },
        { name: 'Nobody Known SA', country: 'Spain', lei: '959800NOBODY00000X99', source: 'nobody.json', facts: [] },
      ]),
    );
    expect(summary).toMatchObject({ filers: 2, companies_matched: 1, data_points: 3, restatements: 1 });
    expect(summary.datasets['net-income']).toMatchObject({
      data_points: 2,
      restatements: 1,
      skipped: { lower_precedence_concept: 1 },
    });
    const gamma = await t.db.kysely
      .selectFrom('companies')
      .select(['company_id', 'lei'])
      .where('name', '=', 'Gamma Holdings plc')
      .executeTakeFirstOrThrow();
    expect(gamma.lei).toBe(gammaLei);
    const points = await sql<{
      original_value: string | number;
      value_usd: string | number;
      candidates: string | null;
      source_key: string;
    }>`
      select p.original_value, p.value_usd, p.candidates, d.source_key from test_net_income_points p
      join documents d on d.document_id = p.document_id
      where p.company_id = ${gamma.company_id} and d.source = 'test-reports' order by d.published_on`.execute(t.db.kysely);
    // GBP at the fixture's 2023 rate, 1.24335 USD per pound.
    expect(points.rows.map((r) => [Number(r.original_value), Number(r.value_usd), r.candidates, r.source_key])).toEqual([
      [-5_000_000, -6_216_750, 'ifrs-full:ProfitLoss=-5200000', 'gamma-2023'],
      [-5_100_000, -6_341_085, null, 'gamma-2024'],
    ]);
    // Matched by the LEI now recorded: the same reports again add nothing.
    const again = await ingestFilings(
      t.db.kysely,
      'reports',
      reports,
      SPECS,
      filers([
        {
          name: 'Renamed Gamma',
          lei: gammaLei,
          source: 'gamma.json',
          facts: [report('gamma-2024', '2025-03-18', 'ifrs-full:ProfitLossAttributableToOwnersOfParent', -5_100_000)],
        },
      ]),
    );
    expect(again).toMatchObject({ companies_matched: 1, documents: 0, data_points: 0 });
  });
});
