import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { conceptsOfAll, type FigureSpec } from '../ingest/core/figure-spec.js';
import { candidatesText } from '../ingest/filings/ingest-filings.js';
import { reportingPeriodOf } from '../ingest/filings/periods.js';
import {
  type Figure,
  type FiledFact,
  type SkipReason,
  selectFigures,
  selectFiguresAndConfirmations,
  selectionRules,
} from '../ingest/filings/select-figures.js';
import { traceFieldsText } from '../ingest/filings/source.js';
import { mainDocumentUrl } from '../ingest/sources/sec/ingest-submissions.js';
import { readCompanyFacts } from '../ingest/sources/sec/read-companyfacts.js';
import { readDataSets } from '../ingest/sources/sec/read-fsds.js';
import { readSubmissions } from '../ingest/sources/sec/read-submissions.js';
import { filingDocumentId, filingIndexUrl, isAnnualForm } from '../ingest/sources/sec/rules.js';
import type { SecFiler } from '../ingest/sources/sec/sec-source.js';
import { isCurrency } from '../money/currencies.js';
import type { Companies } from './companies.js';
import type { Report } from './report.js';

export interface FiledDocument {
  id: string;
  companyId: string;
  title: string;
  sourceUrl: string;
  publishedOn: string;
  reportingPeriod: number;
  form: string;
  accession: string;
  /** The filing's main document, from the SEC submissions beside the filings; null when they lack it. */
  mainDocumentUrl: string | null;
}

export interface FiledFigure {
  companyId: string;
  documentId: string;
  period: number;
  value: string;
  currency: string;
  concept: string;
  start: string | null;
  end: string;
  /** The spec's other concepts the filing tagged for the period (`concept=value ...`), or null. */
  candidates: string | null;
  /** Later filings that repeated the figure rounded (`document_id=value ...`), or null. */
  confirmedBy: string | null;
  /** What the figure's source shows on its trace page (`source_detail`), when it says more (ESEF). */
  sourceDetail?: string | null;
}

/**
 * A chosen figure as the demo's figure row, as `ingest` stores it: its candidates, the later
 * filings that confirmed it rounded (`confirmedBy`, by accession and period end), and its source's
 * trace fields.
 */
export function filedFigure(
  companyId: string,
  documentId: string,
  { fact, reportingPeriod, candidates }: Figure,
  confirmedBy: ReadonlyMap<string, readonly string[]>,
): FiledFigure {
  return {
    companyId,
    documentId,
    period: reportingPeriod,
    value: String(fact.value),
    currency: fact.unit,
    concept: fact.concept,
    start: fact.start,
    end: fact.end,
    candidates: candidatesText(candidates),
    confirmedBy: confirmedBy.get(`${fact.accession}|${fact.end}`)?.join(' ') ?? null,
    sourceDetail: traceFieldsText(fact.trace),
  };
}

/**
 * Every figure of every spec in the SEC filings beside the reference data (`filings/`:
 * companyfacts files and data set zips), chosen by the very rules `bin/corpdata ingest` applies
 * (design §10), so the demo holds what an operator would get by ingesting those files. A filer is
 * matched to its demo company by CIK; one the demo's SEC ticker list lacks is reported, not added.
 * The documents are the filings any spec's figures come from; `figures` is in the order of `specs`.
 */
export async function filedFigures(
  filingsDir: string,
  companies: Companies,
  report: Report,
  hasRate: (currency: string, year: number) => boolean,
  specs: readonly FigureSpec[],
): Promise<{ documents: FiledDocument[]; figures: FiledFigure[][] }> {
  const concepts = conceptsOfAll(specs);
  const rules = specs.map((spec) => selectionRules(spec, isCurrency, isAnnualForm));
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

  const documents = new Map<string, FiledDocument>();
  const figures: FiledFigure[][] = specs.map(() => []);
  const skipped = specs.map(() => new Map<string, number>());
  for (const filer of [...byCik.values()].sort((a, b) => (a.cik < b.cik ? -1 : 1))) {
    const company = companies.byKey.get(`sec-cik:${Number(filer.cik)}`);
    if (company === undefined) {
      // Only a filer with annual figures is worth a line: the data set's quarterly filers are many.
      const lost = rules.reduce((n, r) => n + selectFigures(filer.facts, [], r, () => undefined).length, 0);
      if (lost > 0)
        report.lines.push(`filings: CIK ${filer.cik} (${filer.name}): dropped: not in the SEC ticker list, ${lost} figures`);
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
        form: fact.form,
        accession: fact.accession,
        mainDocumentUrl: null,
      });
      return id;
    };
    for (const [i, rule] of rules.entries()) {
      const out = figures[i] as FiledFigure[];
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
        if (fact.unit !== 'USD' && !hasRate(fact.unit, reportingPeriod)) {
          report.lines.push(`filings: ${filer.cik} ${describe(fact)}: dropped: no FX rate for ${fact.unit} ${reportingPeriod}`);
          continue;
        }
        out.push(filedFigure(company.id, addDocument(fact, reportingPeriod), pick, confirmedBy));
      }
    }
  }
  for (const [i, spec] of specs.entries()) {
    for (const [reason, n] of [...(skipped[i] ?? [])].sort())
      report.lines.push(`filings: ${n} ${spec.noun} facts left out: ${reason}`);
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
  report.lines.push(`filings: ${linked} of ${documents.size} filings linked to their main document (sec-submissions)`);
  return { documents: [...documents.values()], figures };
}

const describe = (f: FiledFact) => `${f.concept} of ${f.accession} ending ${f.end}`;
