import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.js';
import { corpdata } from './support/cli.js';
import { ConsoleClient } from './support/console-client.js';
import { dialects } from './support/dialects.js';
import { spanishIndexPage, spanishListing } from './support/esef-fixtures.js';
import { PUBLIC_URL, startApp, type TestApp } from './support/test-app.js';

const ESEF = fileURLToPath(new URL('./fixtures/esef/', import.meta.url));
const SPANISH = join(ESEF, 'xbrl-json', 'spanish-financials-etl');
const KAINOS_DIR = join(ESEF, 'xbrl-json', 'isw-company-similarity');
const GB_PAGE = join(ESEF, 'filings-api', 'isw-company-similarity', 'gb_filings.json');
const CATALOG = fileURLToPath(new URL('./fixtures/esef-bundle', import.meta.url));

const ENDESA = '549300LHK07F2CHV4X31';
const ENDESA_2025 = `${ENDESA}-2025-12-31-ESEF-ES-0`;

interface Summary {
  filers: number;
  reports: number;
  reports_without_figures: number;
  companies_matched: number;
  companies_added: number;
  facts: number;
  documents: number;
  data_points: number;
  restatements: number;
  skipped: Record<string, number>;
  datasets: Record<
    string,
    { facts: number; data_points: number; restatements: number; reports_without_figures: number; skipped: Record<string, number> }
  >;
}

/** The Spanish reports' index page (test/support/esef-fixtures.ts), plus Endesa's next report (below). */
function spanishPage(): object {
  return spanishIndexPage([
    ...spanishListing(),
    {
      filing_id: 99001,
      fxo_id: ENDESA_2025,
      lei: ENDESA,
      entity_name: 'ENDESA SA',
      period_end: '2025-12-31',
      date_added: '2026-03-02T09:00:00',
      json_url: `/${ENDESA}/2025-12-31/ESEF/ES/0/${ENDESA}-2025-12-31-0-es.json`,
      viewer_url: `/${ENDESA}/2025-12-31/ESEF/ES/0/${ENDESA}-2025-12-31-0-es/reports/ixbrlviewer.html`,
      report_url: `/${ENDESA}/2025-12-31/ESEF/ES/0/${ENDESA}-2025-12-31-0-es/reports/${ENDESA}-2025-12-31-0-es.xhtml`,
    },
  ]);
}

/**
 * Endesa's next report, made from its real 2024 report (test/fixtures/esef/xbrl-json): every
 * period moved a year on, so that 2024 is now the comparative, and that comparative restated
 * from 20,935 to 21,000 million EUR. Added: a repeat of the 2025 revenue fact (same value, another
 * id) and a revenue fact on a segment axis, which the reader counts and leaves out.
 */
function endesaNextReport(): object {
  const report = JSON.parse(readFileSync(join(SPANISH, 'endesa_2024.json'), 'utf8')) as {
    facts: Record<string, { value: string; dimensions: Record<string, string> }>;
  };
  const shift = (p: string) => p.replace(/(\d{4})-(\d{2}-\d{2}T)/g, (_m, y: string, rest: string) => `${Number(y) + 1}-${rest}`);
  for (const fact of Object.values(report.facts)) {
    if (fact.dimensions.period !== undefined) fact.dimensions.period = shift(fact.dimensions.period);
  }
  const current = report.facts.Tag3;
  const comparative = report.facts.Tag4;
  if (current === undefined || comparative === undefined) throw new Error('Endesa report without its revenue facts');
  comparative.value = '21000000000.0';
  report.facts.Tag3Again = structuredClone(current);
  report.facts.TagSegment = {
    ...structuredClone(current),
    dimensions: { ...current.dimensions, 'ifrs-full:SegmentsAxis': 'ele:GenerationMember' },
  };
  return report;
}

/**
 * `bin/corpdata ingest esef` on the real reports of test/fixtures/esef (design §14): companies
 * matched by LEI, else by name and country when exactly one catalog company has them; fiscal
 * years ending in January (Inditex), March (Kainos), December (Endesa); a bank and an explorer
 * without revenue; FX by design §4; a restatement across two reports; all-or-nothing and idempotent.
 */
describe.each(dialects())('ingest esef (%s)', (dialect) => {
  let t: TestApp;
  let dir: string;
  const env = () => ({ CORPDATA_DATABASE: t.database.url, CORPDATA_DEMO: 'off' });
  const run = (...paths: string[]) => corpdata(['ingest', 'esef', ...paths], env());
  const points = async () =>
    (
      await sql<{
        name: string;
        lei: string | null;
        reporting_period: number;
        original_value: number | string;
        original_ccy: string;
        value_usd: number | string;
        period_start: string;
        period_end: string;
        published_on: string;
        source: string;
        source_key: string;
        source_url: string;
        source_detail: string | null;
      }>`select c.name, c.lei, p.reporting_period, p.original_value, p.original_ccy, p.value_usd, p.period_start, p.period_end,
          d.published_on, d.source, d.source_key, d.source_url, p.source_detail
        from revenue_points p join companies c on c.company_id = p.company_id join documents d on d.document_id = p.document_id
        order by c.name, p.reporting_period, d.published_on`.execute(t.db.kysely)
    ).rows.map((r) => ({
      ...r,
      reporting_period: Number(r.reporting_period),
      original_value: Number(r.original_value),
      value_usd: Number(r.value_usd),
    }));

  beforeAll(async () => {
    t = await startApp(dialect, { bundle: CATALOG });
    dir = mkdtempSync(join(tmpdir(), 'corpdata-esef-'));
    writeFileSync(join(dir, 'es-page.json'), JSON.stringify(spanishPage()));
    const index = await corpdata(['ingest', 'esef-index', join(dir, 'es-page.json'), GB_PAGE], env());
    expect(index.code, index.stderr).toBe(0);
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t.close();
  });

  it('refuses a malformed report among good ones, naming it, and writes nothing', async () => {
    const broken = join(dir, 'broken');
    mkdirSync(broken);
    writeFileSync(join(broken, 'cut.json'), readFileSync(join(SPANISH, 'endesa_2024.json')).subarray(0, 2000));
    const r = await run(SPANISH, broken);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(join(broken, 'cut.json'));
    expect(await points()).toEqual([]);
    expect(await t.db.kysely.selectFrom('documents').select('document_id').execute()).toEqual([]);
  });

  it('matches by LEI, else name and country; adds the unknown; skips and counts the ambiguous, the bank and the explorer', async () => {
    const r = await run(SPANISH, KAINOS_DIR);
    expect(r.code, r.stderr).toBe(0);
    const summary = r.json<Summary>();
    // Endesa by LEI; Inditex and Kainos by name and country; Prosegur and Bankinter (its net income),
    // whose LEIs and names no catalog company has, added from their LEI and the index's name and
    // country (design §19.1). Berkeley Energia gives no figure: not added.
    expect(summary).toMatchObject({ filers: 7, reports: 7, companies_matched: 3, companies_added: 2, documents: 5 });
    expect(summary.datasets.revenues).toEqual({
      facts: 10,
      data_points: 7,
      restatements: 0,
      // Bankinter (a bank) and Berkeley Energia (an explorer, year ending June) tag no revenue.
      reports_without_figures: 2,
      // Amper's name has two companies in Spain (2 facts): never guessed, nor added beside them.
      // Inditex's fiscal 2025 (February 2024 – January 2025) has no EUR rate for 2025.
      skipped: { ambiguous_filer: 2, no_fx_rate: 1 },
    });

    const eur2023 = 1 / 0.9248395584706975;
    expect(await points()).toEqual([
      {
        name: 'Endesa, S.A.',
        lei: ENDESA,
        reporting_period: 2023,
        original_value: 25_070_000_000,
        original_ccy: 'EUR',
        value_usd: Math.round(25_070_000_000 * Number(eur2023.toFixed(6))),
        period_start: '2023-01-01',
        // OIM's exclusive end 2024-01-01T00:00:00 is the last day of 2023.
        period_end: '2023-12-31',
        published_on: '2025-05-08',
        source: 'esef',
        source_key: `${ENDESA}-2024-12-31-ESEF-ES-0`,
        source_url: `https://filings.xbrl.org/${ENDESA}/2024-12-31/ESEF/ES/0/${ENDESA}-2024-12-31-0-es/reports/ixbrlviewer.html`,
        // What the trace page shows of the fact, as the ESEF source words it.
        source_detail: JSON.stringify([
          { label: 'LEI', value: ENDESA, kind: 'code' },
          { label: 'fxo_id', value: `${ENDESA}-2024-12-31-ESEF-ES-0`, kind: 'code' },
          { label: 'Fact id', value: 'Tag4', kind: 'code' },
          { label: 'Unit', value: 'iso4217:EUR', kind: 'code' },
          { label: 'Decimals', value: '-6 (precision as tagged, not a scale)' },
          {
            label: 'Report',
            value: `https://filings.xbrl.org/${ENDESA}/2024-12-31/ESEF/ES/0/${ENDESA}-2024-12-31-0-es/reports/${ENDESA}-2024-12-31-0-es.xhtml`,
            kind: 'link',
          },
          {
            label: 'Viewer',
            value: `https://filings.xbrl.org/${ENDESA}/2024-12-31/ESEF/ES/0/${ENDESA}-2024-12-31-0-es/reports/ixbrlviewer.html`,
            kind: 'link',
          },
          {
            label: 'xBRL-JSON',
            value: `https://filings.xbrl.org/${ENDESA}/2024-12-31/ESEF/ES/0/${ENDESA}-2024-12-31-0-es.json`,
            kind: 'link',
          },
        ]),
      },
      expect.objectContaining({ name: 'Endesa, S.A.', reporting_period: 2024, original_value: 20_935_000_000 }),
      // A fiscal year ending 31 January 2024 is reporting period 2024 (design §10.4); its LEI is now recorded.
      expect.objectContaining({
        name: 'Industria de Diseno Textil, S.A.',
        lei: '549300TTCXZOGZM2EY83',
        reporting_period: 2024,
        original_value: 35_947_000_000,
        period_start: '2023-02-01',
        period_end: '2024-01-31',
      }),
      // Years ending 31 March, in GBP; matched by the name and country the GB index page gives.
      expect.objectContaining({
        name: 'Kainos Group plc',
        lei: '213800H2PQMIF3OVZY47',
        reporting_period: 2021,
        original_value: 234_694_000,
        original_ccy: 'GBP',
        period_end: '2021-03-31',
        published_on: '2022-08-02',
        source_key: '213800H2PQMIF3OVZY47-2022-03-31-ESEF-GB-0',
      }),
      expect.objectContaining({ name: 'Kainos Group plc', reporting_period: 2022, original_value: 302_632_000 }),
      expect.objectContaining({
        name: 'PROSEGUR COMPAÑIA DE SEGURIDAD, S.A.',
        lei: '549300N94L4D5NDBFG97',
        reporting_period: 2023,
        original_value: 4_310_029_000,
      }),
      expect.objectContaining({
        name: 'PROSEGUR COMPAÑIA DE SEGURIDAD, S.A.',
        reporting_period: 2024,
        original_value: 4_907_928_000,
      }),
    ]);
    const kainos = (await points()).find((p) => p.reporting_period === 2022);
    expect(kainos?.value_usd).toBe(Math.round(302_632_000 * 1.232587));
    // Two companies added, in the country the index files them under; Amper got no LEI.
    const companies = await t.db.kysely.selectFrom('companies').select(['name', 'lei', 'country']).orderBy('name').execute();
    expect(companies).toHaveLength(7);
    expect(companies.filter((c) => ['549300N94L4D5NDBFG97', 'VWMYAEQSTOPNV0SUGU82'].includes(c.lei ?? ''))).toEqual([
      { name: 'BANKINTER SOCIEDAD ANONIMA', lei: 'VWMYAEQSTOPNV0SUGU82', country: 'Spain' },
      { name: 'PROSEGUR COMPAÑIA DE SEGURIDAD, S.A.', lei: '549300N94L4D5NDBFG97', country: 'Spain' },
    ]);
    expect(companies.filter((c) => c.name.startsWith('Amper')).map((c) => c.lei)).toEqual([null, null]);
  });

  it('changes nothing when the same reports come again', async () => {
    const before = await points();
    const r = await run(SPANISH, KAINOS_DIR, join(SPANISH, 'endesa_2024.json'));
    expect(r.code, r.stderr).toBe(0);
    const summary = r.json<Summary>();
    expect(summary).toMatchObject({ reports: 8, documents: 0, data_points: 0, skipped: { repeated_report: 1 } });
    expect(summary.datasets.revenues?.skipped).toEqual({ already_stored: 7, no_fx_rate: 1, ambiguous_filer: 2 });
    expect(await points()).toEqual(before);
  });

  it("adds a restatement from the next year's report; its repeated and dimensional facts are counted, not taken", async () => {
    const next = join(dir, 'next');
    mkdirSync(next);
    writeFileSync(join(next, `${ENDESA}-2025-12-31-0-es.json`), JSON.stringify(endesaNextReport()));
    const r = await run(next);
    expect(r.code, r.stderr).toBe(0);
    const summary = r.json<Summary>();
    expect(summary).toMatchObject({ filers: 1, companies_matched: 1, documents: 1 });
    // 2025 has no EUR rate in this catalog: skipped until one is added.
    expect(summary.datasets.revenues).toMatchObject({ data_points: 1, restatements: 1, skipped: { no_fx_rate: 1 } });
    // The reader's counts span every concept read (net income's too): at least the two added revenue facts.
    expect(summary.skipped.duplicate).toBeGreaterThanOrEqual(1);
    expect(summary.skipped.dimensional).toBeGreaterThanOrEqual(1);
    const endesa2024 = (await points()).filter((p) => p.name === 'Endesa, S.A.' && p.reporting_period === 2024);
    expect(endesa2024.map((p) => [p.original_value, p.published_on, p.source_key])).toEqual([
      [20_935_000_000, '2025-05-08', `${ENDESA}-2024-12-31-ESEF-ES-0`],
      [21_000_000_000, '2026-03-02', ENDESA_2025],
    ]);
    const again = await run(next);
    expect(again.json<Summary>()).toMatchObject({ documents: 0, data_points: 0, restatements: 0 });
  });
  it('stores a report the index does not date with an unknown date, and dates the same document once the index lists it', async () => {
    // Kainos' real report moved a year on: a fiscal 2023 report that no index page lists.
    const kainos = readFileSync(join(KAINOS_DIR, 'kainos_2022.json'), 'utf8').replace(
      /(\d{4})-(\d{2}-\d{2}T00:00:00)/g,
      (_m, y: string, rest: string) => `${Number(y) + 1}-${rest}`,
    );
    const KAINOS = '213800H2PQMIF3OVZY47';
    const unlisted = join(dir, 'unlisted');
    mkdirSync(unlisted);
    writeFileSync(join(unlisted, 'kainos_2023.json'), kainos);
    const kainos2022 = async () => (await points()).filter((p) => p.name === 'Kainos Group plc' && p.reporting_period === 2022);
    const company = await t.db.kysely
      .selectFrom('companies')
      .select('company_id')
      .where('lei', '=', KAINOS)
      .executeTakeFirstOrThrow();
    const documents = () =>
      t.db.kysely
        .selectFrom('documents')
        .select(['document_id', 'title', 'source_url', 'published_on', 'reporting_period', 'source_key'])
        .where('company_id', '=', company.company_id)
        .orderBy('reporting_period')
        .execute();
    const buyer = await t.account();
    const disclosed = async () => {
      const r = await t.get(`/api/v1/revenues?company_id=${company.company_id}&reporting_period=2022`, buyer.key);
      expect(r.status).toBe(200);
      return r
        .json<Array<{ year_of_disclosure: number; original_value: number }>>()
        .map((x) => [x.year_of_disclosure, x.original_value]);
    };
    const before = await documents();
    expect(before).toHaveLength(1);

    // Its comparative (the real fiscal 2021 value, moved to 2022) differs from fiscal 2022 as
    // stored: a restatement, in a document of unknown date; fiscal 2023 awaits a GBP rate.
    const r = await run(unlisted);
    expect(r.code, r.stderr).toBe(0);
    const undated = r.json<Summary & { reports_undated: number; reports_dated: number }>();
    expect(undated).toMatchObject({ reports: 1, reports_undated: 1, reports_dated: 0, documents: 1 });
    expect(undated.skipped.undated_report).toBeUndefined();
    expect(undated.datasets.revenues).toMatchObject({ data_points: 1, restatements: 1, skipped: { no_fx_rate: 1 } });
    const [, report] = await documents();
    expect(report).toMatchObject({
      published_on: '',
      reporting_period: 2023,
      // Without an index entry: keyed by LEI, period end and language, linked to the filer's page.
      source_key: `${KAINOS}-2023-03-31-en`,
      source_url: `https://filings.xbrl.org/entity/${KAINOS}`,
    });
    // (In published_on order, the unknown date '' first.)
    expect((await kainos2022()).map((p) => [p.original_value, p.published_on, p.source_key])).toEqual([
      [234_694_000, '', `${KAINOS}-2023-03-31-en`],
      [302_632_000, '2022-08-02', `${KAINOS}-2022-03-31-ESEF-GB-0`],
    ]);
    // The year after the period the report covers (fiscal 2023), as for a GHG report without a date.
    expect(await disclosed()).toEqual([
      [2022, 302_632_000],
      [2024, 234_694_000],
    ]);
    const { rows } = await sql<{ point_id: string }>`select point_id from revenue_points
      where document_id = ${report?.document_id ?? ''}`.execute(t.db.kysely);
    const pointId = rows[0]?.point_id ?? '';
    const stranger = await t.account();
    const provenance = async () => {
      const p = await t.get(`/api/v1/trace/${pointId}`, stranger.key);
      expect(p.status).toBe(200);
      return p.json<{
        document: { published_on: string | null; document_id: string };
        filing: {
          filed_on: string | null;
          source: { name: string; fields: Array<{ label: string; value: string; kind: string }> };
        };
        values: unknown;
      }>();
    };
    const first = await provenance();
    expect(first.document).toMatchObject({ document_id: report?.document_id, published_on: null });
    expect(first.filing.filed_on).toBeNull();
    expect(first.filing.source.fields.find((f) => f.label === 'fxo_id')?.value).toBe(
      `none: not in the index (report ${KAINOS}-2023-03-31-en)`,
    );
    expect(first.values).toBeNull();
    const page = await t.get(`/trace/${pointId}`);
    expect(page.text).toContain('unknown (the source gives no publication date)');
    expect(page.text).toContain('2024 (publication date unknown: the year after the period the document covers)');
    const again = await run(unlisted);
    expect(again.json<Summary>()).toMatchObject({ documents: 0, data_points: 0, restatements: 0 });

    // The index lists it now: ingested again, the same document gets its date and link, its figure its fxo_id.
    const listing = {
      data: [
        {
          type: 'filing',
          id: '99002',
          attributes: {
            fxo_id: `${KAINOS}-2023-03-31-ESEF-GB-0`,
            country: 'GB',
            period_end: '2023-03-31',
            date_added: '2023-08-01 00:00:00',
            json_url: `/${KAINOS}/2023-03-31/ESEF/GB/0/kainos_2023.json`,
          },
        },
      ],
    };
    writeFileSync(join(dir, 'gb-2023.json'), JSON.stringify(listing));
    const listed = await corpdata(['ingest', 'esef-index', join(dir, 'gb-2023.json')], env());
    expect(listed.code, listed.stderr).toBe(0);
    const dated = await run(unlisted);
    expect(dated.code, dated.stderr).toBe(0);
    expect(dated.json<Summary & { reports_undated: number; reports_dated: number }>()).toMatchObject({
      reports_undated: 0,
      reports_dated: 1,
      documents: 0,
      data_points: 0,
      restatements: 0,
    });
    const after = await documents();
    expect(after).toHaveLength(2);
    expect(after[1]).toMatchObject({
      document_id: report?.document_id,
      published_on: '2023-08-01',
      source_key: `${KAINOS}-2023-03-31-en`,
      source_url: `https://filings.xbrl.org/${KAINOS}/2023-03-31/ESEF/GB/0/kainos_2023.json`,
    });
    expect(after[1]?.title).toContain(`${KAINOS}-2023-03-31-ESEF-GB-0`);
    expect((await kainos2022()).map((p) => [p.original_value, p.published_on])).toEqual([
      [302_632_000, '2022-08-02'],
      [234_694_000, '2023-08-01'],
    ]);
    expect(await disclosed()).toEqual([
      [2022, 302_632_000],
      [2023, 234_694_000],
    ]);
    const second = await provenance();
    expect(second.document.published_on).toBe('2023-08-01');
    expect(second.filing.filed_on).toBe('2023-08-01');
    expect(second.filing.source.fields.find((f) => f.label === 'fxo_id')).toEqual({
      label: 'fxo_id',
      value: `${KAINOS}-2023-03-31-ESEF-GB-0`,
      kind: 'code',
    });
    const last = await run(unlisted);
    expect(last.json<Summary & { reports_dated: number }>()).toMatchObject({ reports_dated: 0, documents: 0, data_points: 0 });
    expect(await documents()).toEqual(after);
  });
  it("shows an ESEF figure's concept, LEI, fxo_id, fact id, period, unit and decimals on its trace page; the value only to a buyer", async () => {
    const password = 'esef trace password';
    const account = await t.account({ password });
    const client = new ConsoleClient(t.url);
    expect((await client.signIn(account.email, password)).status).toBe(303);
    const endesa = '20000000-0000-4000-8000-000000000001';
    // A 2023 trace id, as the revenues answer gives it (the call buys the company-period).
    const { rows } = await sql<{ point_id: string }>`select point_id from revenue_points p
      where p.company_id = ${endesa} and p.reporting_period = 2023`.execute(t.db.kysely);
    const path = `/trace/${rows[0]?.point_id}`;
    const fxo = `${ENDESA}-2024-12-31-ESEF-ES-0`;
    const viewer = `https://filings.xbrl.org/${ENDESA}/2024-12-31/ESEF/ES/0/${ENDESA}-2024-12-31-0-es/reports/ixbrlviewer.html`;
    const report = `https://filings.xbrl.org/${ENDESA}/2024-12-31/ESEF/ES/0/${ENDESA}-2024-12-31-0-es/reports/${ENDESA}-2024-12-31-0-es.xhtml`;
    const publicFacts = [
      '<code>ifrs-full:Revenue</code>',
      `<code>${ENDESA}</code>`,
      `<code>${fxo}</code>`,
      '<code>Tag4</code>',
      '2023-01-01 to 2023-12-31',
      '<code>iso4217:EUR</code>',
      '-6 (precision as tagged, not a scale)',
      `href="${viewer}"`,
      `href="${report}"`,
      'ENDESA SA: ESEF annual report for the year ending 2024-12-31',
    ];
    const before = await client.get(path);
    expect(before.status).toBe(200);
    for (const text of publicFacts) expect(before.text).toContain(text);
    expect(before.text).toContain('has not bought the revenues of Endesa, S.A., 2023');
    expect(before.text).not.toContain('25,070,000,000');
    // SEC's own fields have no place on an ESEF figure's page.
    expect(before.text).not.toContain('Accession number');

    // The JSON form of the trace carries the same source fields, public like the page; the value only for a buyer.
    const json = await t.get(`/api/v1/trace/${rows[0]?.point_id}`, account.key);
    expect(json.status).toBe(200);
    expect(json.text).not.toContain('25070000000');
    expect(json.json<{ filing: unknown; values: unknown }>()).toMatchObject({
      filing: {
        form: null,
        accession: null,
        filed_on: '2025-05-08',
        main_document_url: null,
        source: {
          name: 'esef',
          fields: [
            { label: 'LEI', value: ENDESA, kind: 'code' },
            { label: 'fxo_id', value: fxo, kind: 'code' },
            { label: 'Fact id', value: 'Tag4', kind: 'code' },
            { label: 'Unit', value: 'iso4217:EUR', kind: 'code' },
            { label: 'Decimals', value: '-6 (precision as tagged, not a scale)', kind: 'text' },
            { label: 'Report', value: report, kind: 'link' },
            { label: 'Viewer', value: viewer, kind: 'link' },
            {
              label: 'xBRL-JSON',
              value: `https://filings.xbrl.org/${ENDESA}/2024-12-31/ESEF/ES/0/${ENDESA}-2024-12-31-0-es.json`,
              kind: 'link',
            },
          ],
        },
      },
      values: null,
    });

    const paid = await t.get(`/api/v1/revenues?company_id=${endesa}&reporting_period=2023`, account.key);
    expect(paid.status).toBe(200);
    expect(paid.json<Array<{ traceability_source_url: string }>>().map((r) => r.traceability_source_url)).toEqual([
      `${PUBLIC_URL}${path}`,
    ]);
    const after = await client.get(path);
    for (const text of publicFacts) expect(after.text).toContain(text);
    expect(after.text).toContain('25,070,000,000 EUR');
    const bought = await t.get(`/api/v1/trace/${rows[0]?.point_id}`, account.key);
    expect(bought.json<{ values: { original_value: number } }>().values.original_value).toBe(25_070_000_000);

    // Seen in a browser, signed in as the buyer: nothing sideways on a phone (docs/screenshots has it).
    const browser = await launchBrowser();
    try {
      for (const [width, height] of [
        [1280, 800],
        [390, 844],
      ] as const) {
        const context = await browser.newContext({ viewport: { width, height } });
        await context.addCookies([...client.cookies].map(([name, value]) => ({ name, value, url: t.url })));
        const page = await context.newPage();
        await page.goto(`${t.url}${path}`);
        expect(await page.textContent('body')).toContain('25,070,000,000 EUR');
        expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
        if (process.env.UPDATE_SCREENSHOTS === '1' && dialect === 'sqlite') {
          await page.screenshot({
            path: fileURLToPath(new URL(`../docs/screenshots/trace-esef-${width}.png`, import.meta.url)),
            fullPage: true,
          });
        }
        await context.close();
      }
    } finally {
      await browser.close();
    }
  });
});
