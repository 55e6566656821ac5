import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { figureSpecsOf } from '../datasets/dataset-list.js';
import { ghgBundle } from '../datasets/ghg-emissions/ghg-bundle.js';
import { LINE_ITEMS } from '../datasets/line-items/line-items.js';
import { DATASETS } from '../datasets/registry.js';
import { revenues as revenueDataset } from '../datasets/revenues/revenues-dataset.js';
import type { FigureSpec } from '../ingest/core/figure-spec.js';
import type { DemoFiledDocument, DemoFiledFigure, DemoText } from '../ingest/demo/demo-part.js';
import { SOURCES } from '../ingest/registry.js';
import { allColumns, BUNDLE_FILES } from '../ingest/sources/bundle/bundle-files.js';
import { DEMO_SUCCESSIONS } from '../ingest/sources/sec/demo-successions.js';
import { citedDocuments } from '../quality/findings.js';
import { STATEMENT_TABLES, type StatementLine } from '../quality/statement-checks.js';
import { demoAudit } from './audit.js';
import { Companies } from './companies.js';
import { readSource, writeCsv } from './csv.js';
import { mergeEntities } from './entities.js';
import { ESEF_FILER_LISTINGS_CSV, ESEF_FILER_LISTINGS_FILE } from './esef-filer-listings.js';
import { yearlyRates } from './fx.js';
import { GhgSources } from './ghg.js';
import { lineItemExamples } from './line-item-examples.js';
import { checkSegments } from './markets.js';
import { Report } from './report.js';
import { type DemoDocument, Revenues } from './revenues.js';
import { sourcesText } from './sources-text.js';

/**
 * The datasets whose figures the demo reads from the sources' filings, each into its own bundle
 * file by the rules of `bin/corpdata ingest`. Revenues also take the reference data's revenue files.
 */
const FIGURE_SPECS: readonly FigureSpec[] = figureSpecsOf(DATASETS);
/** Revenues' figure spec, among the others: the demo's headline, whose figures the revenue files add to. */
function revenueFiguresOf(specs: readonly FigureSpec[]): FigureSpec {
  const spec = specs.find((s) => s === revenueDataset.figures);
  if (spec === undefined) throw new Error('no registered dataset reads revenue figures from filings');
  return spec;
}

/**
 * Builds the demo import bundle from the reference data (`../shared/data`), reproducibly: the same
 * input gives byte-identical files. The companies, the revenue files, the GHG sets and the FX rates
 * are the demo's own; the filings are each source's (`Source.demo`, in the order of the list of
 * sources), so a source's demo figures live in its folder. Usage: node dist/demo/build-bundle.js SOURCE_DIR OUT_DIR.
 * OUT_DIR receives the bundle files (one per figure spec among them); its parent receives REPORT.txt and SOURCES.md.
 */
async function main(sourceDir: string, outDir: string): Promise<void> {
  const revenueFigures = revenueFiguresOf(FIGURE_SPECS);
  const report = new Report();
  checkSegments(readSource(sourceDir, 'mic.csv'));
  const rates = yearlyRates(readSource(sourceDir, 'fx_yearly_avg_usd.csv'));
  const hasRate = (currency: string, year: number) => rates.some((r) => r.currency === currency && r.year === year);

  const companies = new Companies(report);
  companies.addSec(readSource(sourceDir, 'companies_sec_tickers_exchange.csv'));
  companies.addSp500(readSource(sourceDir, 'companies_sp500_constituents.csv'));
  companies.addFinanceDatabase(readSource(sourceDir, 'companies_financedatabase_home_listings.csv'));
  companies.addFinanceDatabase(readSource(sourceDir, ESEF_FILER_LISTINGS_FILE, ESEF_FILER_LISTINGS_CSV));
  const revenues = new Revenues(report, hasRate);
  revenues.addSec(readSource(sourceDir, 'revenues_sec_xbrl_rpages.csv'), companies);
  revenues.addReports(readSource(sourceDir, 'revenues_company_reports.csv'), companies);
  const entities = mergeEntities(companies);
  for (const item of [...revenues.documents.values(), ...revenues.figures.values()])
    item.companyId = entities.aliases.get(item.companyId) ?? item.companyId;

  const all = companies.all();
  const revenueSpec = FIGURE_SPECS.indexOf(revenueFigures);
  const filedDocuments: DemoFiledDocument[] = [];
  const filedBySpec: DemoFiledFigure[][] = FIGURE_SPECS.map(() => []);
  const leis = new Map<string, string>();
  const described: DemoText[] = [];
  for (const source of SOURCES) {
    if (source.demo === undefined) continue;
    const part = await source.demo();
    const rows = await part.read({
      dataDir: sourceDir,
      companies: all,
      byKey: companies.byKey,
      specs: FIGURE_SPECS,
      hasRate,
      note: (line) => report.lines.push(line),
    });
    // A filing read as XBRL is one document: its "R" page figures of the revenue file leave.
    const accessions = rows.documents.flatMap((d) => (d.accession === undefined ? [] : [d.accession]));
    report.lines.push(...revenues.withoutFilings(new Set(accessions)));
    filedDocuments.push(...rows.documents);
    for (const [i, own] of rows.figures.entries()) filedBySpec[i]?.push(...own);
    for (const [companyId, lei] of rows.leis) leis.set(companyId, lei);
    described.push(part.describe({ documents: rows.documents, figures: rows.figures[revenueSpec] ?? [] }));
  }

  type Document = DemoDocument & { form?: string; accession?: string; mainDocumentUrl?: string | null };
  const documents: Document[] = [...revenues.documents.values(), ...filedDocuments].sort((a, b) => (a.id < b.id ? -1 : 1));
  const figures: FigureRow[] = sortFigures([...revenues.figures.values(), ...(filedBySpec[revenueSpec] ?? [])]);
  const usedCurrencies = new Set(figures.map((f) => f.currency));
  const ghgSources = new GhgSources();
  const ghgDir = join(sourceDir, 'ghg');
  ghgSources.addOsClimate(join(ghgDir, 'os-climate-itr'), '20230106 ITR V2 Sample Data.xlsx');
  ghgSources.addOsClimate(join(ghgDir, 'os-climate-itr'), '20231031 ITR V2 Sample Data.xlsx');
  ghgSources.addCarbonGap(join(ghgDir, 'carbon-gap'), 'profit_and_emmissions_database.csv');
  ghgSources.addKlimatkollen(join(ghgDir, 'klimatkollen'), 'companyData.xlsx');
  const ghg = ghgSources.build(all);
  const bundleRates = rates;

  mkdirSync(outDir, { recursive: true });
  writeCsv(
    join(outDir, 'companies.csv'),
    allColumns('companies.csv'),
    all.map((c) => {
      const [p] = c.listings;
      const cik = c.key.startsWith('sec-cik:') ? c.key.slice('sec-cik:'.length).padStart(10, '0') : '';
      // A successor also files under its predecessors' CIKs (their filings are placed under it).
      const predecessors = [...DEMO_SUCCESSIONS]
        .filter(([, s]) => cik !== '' && s.successor === Number(cik))
        .map(([old]) => String(old).padStart(10, '0'));
      return [
        c.id,
        c.name,
        c.country ?? '',
        leis.get(c.id) ?? '',
        p?.ticker ?? '',
        p?.mic ?? '',
        p?.isin ?? '',
        cik,
        predecessors.join(' '),
      ];
    }),
  );
  const further = all
    .flatMap((c) => c.listings.slice(1).map((l) => [c.id, l.ticker, l.mic, l.isin ?? '']))
    .sort((a, b) => (a.join('|') < b.join('|') ? -1 : 1));
  writeCsv(join(outDir, 'listings.csv'), BUNDLE_FILES['listings.csv'], further);
  writeCsv(
    join(outDir, 'documents.csv'),
    allColumns('documents.csv'),
    [
      ...documents.map((d) => ({ ...d, kind: 'financial' })),
      ...ghg.documents.map((d) => ({
        ...d,
        form: undefined,
        accession: undefined,
        mainDocumentUrl: undefined,
        source: undefined,
        kind: 'sustainability',
      })),
    ]
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .map((d) => [
        d.id,
        d.companyId,
        d.title,
        d.sourceUrl,
        d.publishedOn,
        String(d.reportingPeriod),
        'processed',
        d.form ?? '',
        d.accession ?? '',
        d.kind,
        d.mainDocumentUrl ?? '',
        // As export writes it (design §15): an import keeps where each document came from.
        d.source?.name ?? 'bundle',
        d.source?.key ?? d.id,
      ]),
  );
  writeCsv(
    join(outDir, ghgBundle.file),
    [...ghgBundle.columns, ...ghgBundle.optionalColumns],
    ghg.figures.map((f) => [f.companyId, f.documentId, String(f.period), f.scope, f.value, f.unit, f.page]),
  );
  for (const [i, spec] of FIGURE_SPECS.entries()) {
    if (spec === revenueFigures) continue;
    writeCsv(join(outDir, spec.bundleFile), spec.bundleColumns, sortFigures(filedBySpec[i] ?? []).map(figureRow));
  }
  writeCsv(join(outDir, revenueFigures.bundleFile), revenueFigures.bundleColumns, figures.map(figureRow));
  // The line items' OpenAPI examples, from these rows (src/datasets/line-items/line-item-examples.ts reads them).
  const documentsById = new Map(documents.map((d) => [d.id, d]));
  const rateOf = (currency: string, year: number) => rates.find((r) => r.currency === currency && r.year === year)?.usdPerUnit;
  writeFileSync(
    join(dirname(outDir), 'line-item-examples.json'),
    `${JSON.stringify(lineItemExamples(FIGURE_SPECS, filedBySpec, documentsById, rateOf, new Set(LINE_ITEMS.map((l) => l.name))), null, 1)}\n`,
  );
  writeCsv(
    join(outDir, 'fx_rates.csv'),
    BUNDLE_FILES['fx_rates.csv'],
    bundleRates.map((r) => [r.currency, String(r.year), r.usdPerUnit, r.source]),
  );

  const counts = {
    companies: all.length,
    listings: all.reduce((n, c) => n + c.listings.length, 0),
    documents: documents.length,
    dataPoints: figures.length,
    companiesWithRevenue: new Set(figures.map((f) => f.companyId)).size,
    currencies: [...usedCurrencies].sort(),
    exchanges: new Set(all.flatMap((c) => c.listings.map((l) => l.mic))).size,
    countries: new Set(all.map((c) => c.country).filter((c) => c !== null)).size,
    fxRates: bundleRates.length,
    dropped: report.lines.filter((l) => l.includes(': dropped: ')).length,
    mergedCompanies: entities.merged,
    keptApart: entities.keptApart,
    ghgDocuments: ghg.documents.length,
    ghgFigures: ghg.figures.length,
    ghgCompanies: new Set(ghg.figures.map((f) => f.companyId)).size,
  };
  const summary = [
    `companies ${counts.companies}`,
    `listings ${counts.listings}`,
    `documents ${counts.documents}`,
    `data points ${counts.dataPoints} (of ${counts.companiesWithRevenue} companies)`,
    `currencies of data points ${counts.currencies.length}: ${counts.currencies.join(' ')}`,
    `exchanges ${counts.exchanges}`,
    `countries ${counts.countries}`,
    `fx rates ${counts.fxRates}`,
    ...described.map((d) => d.summary),
    `source rows dropped ${counts.dropped}`,
    `companies merged into another listing's company ${counts.mergedCompanies}; same-named companies kept apart ${counts.keptApart}`,
    `ghg emission figures ${counts.ghgFigures} (of ${counts.ghgCompanies} companies, in ${counts.ghgDocuments} reports)`,
  ];
  const audit = demoAudit(
    all,
    [...documents, ...ghg.documents],
    figures,
    ghg.figures.map((f) => ({ ...f, scope: String(f.scope) })),
    bundleRates,
    FIGURE_SPECS.flatMap((spec, i) =>
      spec === revenueFigures
        ? []
        : [
            {
              metric: spec.metric,
              figures: (filedBySpec[i] ?? []).flatMap((f) =>
                citedDocuments(f.documentId, f.confirmedBy).map((documentId) => ({ ...f, documentId })),
              ),
            },
          ],
    ),
    {
      revenue: figures,
      ...Object.fromEntries(
        FIGURE_SPECS.flatMap((spec, i) => {
          const line = (STATEMENT_TABLES as Partial<Record<string, StatementLine>>)[spec.table];
          return line === undefined || spec === revenueFigures ? [] : [[line, filedBySpec[i] ?? []]];
        }),
      ),
    },
  );
  for (const [i, spec] of FIGURE_SPECS.entries()) {
    if (spec === revenueFigures) continue;
    const own = filedBySpec[i] ?? [];
    summary.push(
      `filed ${spec.noun}: ${own.length} data points of ${new Set(own.map((f) => f.companyId)).size} companies (${spec.bundleFile})`,
    );
  }
  summary.push(`check-data findings ${audit.findings.length}, each explained in its "check-data:" line`);
  const withAudit = { ...counts, auditFindings: audit.findings.length };
  const parent = dirname(outDir);
  writeFileSync(
    join(parent, 'REPORT.txt'),
    `${[...report.lines, '', ...entities.lines, '', ...audit.lines, '', ...ghg.report, '', ...summary].join('\n')}\n`,
  );
  writeFileSync(join(parent, 'SOURCES.md'), sourcesText(withAudit, described));
  process.stdout.write(`${summary.join('\n')}\n`);
}

interface FigureRow {
  companyId: string;
  documentId: string;
  period: number;
  value: string;
  currency: string;
  concept?: string;
  start?: string | null;
  end?: string;
  candidates?: string | null;
  confirmedBy?: string | null;
  sourceDetail?: string | null;
}

/** By company, period, then document: the order of every figures file. */
function sortFigures<T extends FigureRow>(figures: T[]): T[] {
  return figures.sort(
    (a, b) =>
      (a.companyId < b.companyId ? -1 : a.companyId > b.companyId ? 1 : 0) ||
      a.period - b.period ||
      (a.documentId < b.documentId ? -1 : a.documentId > b.documentId ? 1 : 0),
  );
}

/** A figure as a line of its spec's file, in the order of {@link FigureSpec.bundleColumns}. */
const figureRow = (f: FigureRow): string[] => [
  f.companyId,
  f.documentId,
  String(f.period),
  f.value,
  f.currency,
  f.concept ?? '',
  f.start ?? '',
  f.end ?? '',
  f.candidates ?? '',
  f.confirmedBy ?? '',
  f.sourceDetail ?? '',
];

const [sourceDir, outDir] = process.argv.slice(2);
if (sourceDir === undefined || outDir === undefined) {
  process.stderr.write('usage: node dist/demo/build-bundle.js SOURCE_DIR OUT_DIR\n');
  process.exitCode = 2;
} else {
  main(sourceDir, outDir).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
