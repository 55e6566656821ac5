import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isCurrency } from '../../../money/currencies.js';
import { conceptsOfAll } from '../../core/figure-spec.js';
import {
  type DemoFiledDocument,
  type DemoFiledFigure,
  type DemoInput,
  type DemoPart,
  type DemoRows,
  demoFiledFigure,
  figureCurrency,
} from '../../demo/demo-part.js';
import { reportingPeriodOf } from '../../filings/periods.js';
import {
  type FiledFact,
  type SkipReason,
  selectFigures,
  selectFiguresAndConfirmations,
  selectionRules,
} from '../../filings/select-figures.js';
import { DEMO_SUCCESSIONS } from './demo-successions.js';
import { mainDocumentUrl } from './ingest-submissions.js';
import { readCompanyFacts } from './read-companyfacts.js';
import { readDataSets } from './read-fsds.js';
import { readSubmissions } from './read-submissions.js';
import { filingDocumentId, filingIndexUrl, isAnnualForm } from './rules.js';
import { type SecFiler, secSource } from './sec-source.js';

/** SEC's part of the demo: the filings beside the reference data (`filings/`), and what the demo says of them. */
export const secDemo: DemoPart = {
  read: filedFigures,
  describe: ({ documents, figures }) => {
    const points = figures.length;
    const companies = new Set(figures.map((f) => f.companyId)).size;
    return {
      summary: `filed: ${points} data points of ${companies} companies from ${documents.length} SEC filings`,
      holds: `- of those, ${points} data points of ${companies} companies read from ${documents.length} SEC filings (every
  year the filings give, also before 2020), each with its XBRL concept, period and accession number`,
      credits: CREDITS,
      rules: RULES,
    };
  },
};

const CREDITS =
  "| filed US revenue figures | SEC XBRL companyfacts (`data.sec.gov/api/xbrl/companyfacts`) of 19 companies, as copied by GitHub starlightenergies/ParseSECreports and dgunning/edgartools; one SEC Financial Statement Data Set quarter (2009q3, via HansjoergW/sec-fincancial-statement-data-set); the companyfacts of 351 large US filers (FY2020–2025, `companyfacts-sp500-2025.zip`, from hanumantjain/sp500_agentic_ai, kotoba-lang/gov.sec.edgar, annanyashah9/accounting-redflag-screen and koonkayma/stock-batch) and their SEC submissions files (each filing's main document) | SEC output: US government data, public domain (edgartools and sp500_agentic_ai MIT, the data set repository Apache-2.0) |";

const RULES = `- Filed figures (SEC companyfacts and data sets in \`filings/\`) are chosen by the rules
  \`bin/corpdata ingest\` applies: annual periods of 10-K, 20-F and 40-F filings and their
  amendments, the first present revenue concept of each filing and period (Revenues,
  RegulatedAndUnregulatedOperatingRevenue, RevenuesNetOfInterestExpense, contract revenue excluding
  then including assessed tax, SalesRevenueNet; IFRS Revenue, then RevenueFromContractsWithCustomers),
  the other candidates kept beside it, the reporting period from the period end (one ending by 7
  January counts to the year before), the figure as first reported and each later different value
  as a restatement; a later value that is the earlier one rounded to its own precision confirms it
  (its filing is named on the figure) and adds no data point. Each filing is one document, dated
  with its filed date and linked to its EDGAR filing index and, where the SEC submissions name it,
  its main document; its figures keep their concept and period. A filing the demo reads as XBRL
  replaces its "R" page figures (REPORT.txt names them).`;

/**
 * Every figure of every spec in the SEC filings beside the reference data (`filings/`:
 * companyfacts files and data set zips), chosen by the very rules `bin/corpdata ingest` applies
 * (design §10), so the demo holds what an operator would get by ingesting those files. A filer is
 * matched to its demo company by CIK, or its successor's where the demo's reviewed list names one
 * ({@link DEMO_SUCCESSIONS}); one the demo's SEC ticker list lacks is reported, not added.
 * The documents are the filings any spec's figures come from; `figures` is in the order of `specs`.
 */
async function filedFigures({ dataDir, byKey, specs, hasRate, note }: DemoInput): Promise<DemoRows> {
  const filingsDir = join(dataDir, 'filings');
  const concepts = conceptsOfAll(specs);
  const rules = specs.map((spec) => ({ spec, ...selectionRules(spec, isCurrency, isAnnualForm) }));
  const byCik = new Map<string, SecFiler>();
  const gather = async (filers: AsyncIterable<SecFiler>) => {
    for await (const f of filers) {
      const held = byCik.get(f.cik);
      if (held === undefined) byCik.set(f.cik, { ...f, facts: [...f.facts] });
      else held.facts.push(...f.facts);
    }
  };
  await gather(
    readCompanyFacts(
      [join(filingsDir, 'sec-companyfacts'), join(filingsDir, 'sec-companyfacts-bulk', 'companyfacts-sp500-2025.zip')],
      concepts,
    ),
  );
  const zips = readdirSync(join(filingsDir, 'sec-fsds'))
    .filter((f) => f.endsWith('.zip'))
    .sort()
    .map((f) => join(filingsDir, 'sec-fsds', f));
  await gather(readDataSets(zips, concepts));

  const documents = new Map<string, DemoFiledDocument>();
  const figures: DemoFiledFigure[][] = specs.map(() => []);
  const skipped = specs.map(() => new Map<string, number>());
  for (const filer of [...byCik.values()].sort((a, b) => (a.cik < b.cik ? -1 : 1))) {
    const succession = DEMO_SUCCESSIONS.get(Number(filer.cik));
    const company = byKey.get(`sec-cik:${succession?.successor ?? Number(filer.cik)}`);
    if (succession !== undefined && company !== undefined) {
      note(
        `filings: CIK ${filer.cik} (${filer.name}): placed under CIK ${succession.successor}, its successor (${succession.why})`,
      );
    }
    if (company === undefined) {
      // Only a filer with annual figures is worth a line: the data set's quarterly filers are many.
      const lost = rules.reduce((n, r) => n + selectFigures(filer.facts, [], r, () => undefined).length, 0);
      if (lost > 0) note(`filings: CIK ${filer.cik} (${filer.name}): dropped: not in the SEC ticker list, ${lost} figures`);
      continue;
    }
    const periods = new Map<string, number>();
    for (const f of filer.facts) {
      if (isAnnualForm(f.form)) periods.set(f.accession, Math.max(periods.get(f.accession) ?? 0, reportingPeriodOf(f.end)));
    }
    const addDocument = (fact: FiledFact, reportingPeriod: number) => {
      const id = filingDocumentId(fact.accession);
      if (documents.has(id)) return id;
      documents.set(id, {
        id,
        companyId: company.id,
        title: `${filer.name}: ${fact.form} filed ${fact.filed} (accession ${fact.accession})`,
        sourceUrl: filingIndexUrl(filer.cik, fact.accession),
        publishedOn: fact.filed,
        reportingPeriod: periods.get(fact.accession) ?? reportingPeriod,
        source: { name: secSource.name, key: fact.accession },
        form: fact.form,
        accession: fact.accession,
        mainDocumentUrl: null,
      });
      return id;
    };
    for (const [i, rule] of rules.entries()) {
      const out = figures[i] as DemoFiledFigure[];
      const counts = skipped[i] as Map<string, number>;
      const skip = (reason: SkipReason) => counts.set(reason, (counts.get(reason) ?? 0) + 1);
      const { figures: chosen, confirmations } = selectFiguresAndConfirmations(filer.facts, [], rule, skip);
      const confirmedBy = new Map<string, string[]>();
      for (const c of confirmations) {
        const key = `${c.accession}|${c.end}`;
        const id = addDocument(c.by, reportingPeriodOf(c.by.end));
        confirmedBy.set(key, [...(confirmedBy.get(key) ?? []), `${id}=${c.by.value}`]);
      }
      for (const pick of chosen) {
        const { fact, reportingPeriod } = pick;
        const currency = figureCurrency(fact);
        if (currency !== 'USD' && !hasRate(currency, reportingPeriod)) {
          note(`filings: ${filer.cik} ${describe(fact)}: dropped: no FX rate for ${currency} ${reportingPeriod}`);
          continue;
        }
        out.push(demoFiledFigure(rule.spec, company.id, addDocument(fact, reportingPeriod), pick, confirmedBy));
      }
    }
  }
  for (const [i, spec] of specs.entries()) {
    for (const [reason, n] of [...(skipped[i] ?? [])].sort()) note(`filings: ${n} ${spec.noun} facts left out: ${reason}`);
  }
  // Each filing's main document, as `ingest sec-submissions` records it.
  const byAccession = new Map([...documents.values()].map((d) => [d.accession, d]));
  let linked = 0;
  for await (const { cik, filings } of readSubmissions([join(filingsDir, 'sec-submissions', 'submissions-sp500-2025.zip')])) {
    for (const f of filings) {
      const d = byAccession.get(f.accession);
      if (d === undefined || d.mainDocumentUrl !== null || f.primaryDocument === '') continue;
      d.mainDocumentUrl = mainDocumentUrl(cik, f.accession, f.primaryDocument);
      linked++;
    }
  }
  note(`filings: ${linked} of ${documents.size} filings linked to their main document (sec-submissions)`);
  return { documents: [...documents.values()], figures, leis: new Map() };
}

const describe = (f: FiledFact) => `${f.concept} of ${f.accession} ending ${f.end}`;
