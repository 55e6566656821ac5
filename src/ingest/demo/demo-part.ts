import { perShareCurrency, perShareText } from '../../money/per-share.js';
import type { FigureSpec } from '../core/figure-spec.js';
import { candidatesText, parsePairs } from '../filings/ingest-filings.js';
import type { Figure } from '../filings/select-figures.js';
import { type FiledFact, traceFieldsText } from '../filings/source.js';

/**
 * A source's part of the demo bundle (`node dist/demo/build-bundle.js`): how its files under the
 * reference data folder become bundle rows, chosen by the rules its `ingest` applies, without a
 * database. The demo builder runs the part of every source of the list, in the list's order, so a
 * source's demo figures live in its own folder and a new source adds its part there.
 */
export interface DemoPart {
  /** Reads the source's files under `input.dataDir` into documents and figures of the demo's companies. */
  read(input: DemoInput): Promise<DemoRows>;
  /** What the demo's summary and `demo/SOURCES.md` say of the rows it read. */
  describe(rows: DemoSummaryInput): DemoText;
}

/** A company of the demo's catalog, as a source's part matches its filers to it. */
export interface DemoCatalogCompany {
  /** The stable source key its id is derived from: `sec-cik:…` or `fd:…`. */
  readonly key: string;
  readonly id: string;
  readonly name: string;
  readonly country: string | null;
}

/** What the demo builder hands every source's part. */
export interface DemoInput {
  /** The reference data folder (`../shared/data`); each source reads its own folder in it. */
  readonly dataDir: string;
  /** The demo's companies, merged across the catalog's sources. */
  readonly companies: readonly DemoCatalogCompany[];
  /** Every company by its source key (`sec-cik:320193`), those without a listing too. */
  readonly byKey: ReadonlyMap<string, DemoCatalogCompany>;
  /** The figure specs of the datasets, one bundle file each; {@link DemoRows.figures} follows their order. */
  readonly specs: readonly FigureSpec[];
  /** Whether the reference data has a yearly rate of the currency: a figure without one is left out. */
  hasRate(currency: string, year: number): boolean;
  /** Adds a line to `demo/REPORT.txt`: a source row left out or changed, and why. */
  note(line: string): void;
}

/** A source's documents and figures, as bundle rows. */
export interface DemoRows {
  readonly documents: readonly DemoFiledDocument[];
  /** The figures of each spec, in the order of {@link DemoInput.specs}. */
  readonly figures: readonly (readonly DemoFiledFigure[])[];
  /** The LEI a filing gave of a demo company, by company id (`companies.csv`). */
  readonly leis: ReadonlyMap<string, string>;
}

/** A source's rows as its description counts them: all its documents, and its figures of the demo's headline dataset (revenue). */
export interface DemoSummaryInput {
  readonly documents: readonly DemoFiledDocument[];
  readonly figures: readonly DemoFiledFigure[];
}

/** What the demo says of a source's rows. */
export interface DemoText {
  /** A line of the summary (stdout, the end of `REPORT.txt`). */
  readonly summary: string;
  /** Its item of `SOURCES.md`'s "What it holds" list (Markdown, lines after the first indented). */
  readonly holds: string;
  /** Its row of `SOURCES.md`'s table of sources and terms. */
  readonly credits: string;
  /** Its item of `SOURCES.md`'s rules, when it has rules of its own to say. */
  readonly rules?: string;
}

/** A filing of a source, as a row of the bundle's `documents.csv`. */
export interface DemoFiledDocument {
  id: string;
  companyId: string;
  title: string;
  sourceUrl: string;
  publishedOn: string;
  reportingPeriod: number;
  /** The source it came from and that source's key of it (design §15), as export writes them. */
  source: { name: string; key: string };
  /** The filing's form and accession number, where the source has them (SEC). */
  form?: string;
  accession?: string;
  /** The filing's main document, where the source names it; null when it does not. */
  mainDocumentUrl?: string | null;
}

/** A figure of a source, as a row of its spec's bundle file. */
export interface DemoFiledFigure {
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
export function demoFiledFigure(
  spec: FigureSpec,
  companyId: string,
  documentId: string,
  { fact, reportingPeriod, candidates }: Figure,
  confirmedBy: ReadonlyMap<string, readonly string[]>,
): DemoFiledFigure {
  const confirmations = confirmedBy.get(`${fact.accession}|${fact.end}`)?.join(' ') ?? null;
  // A per-share figure's file holds decimals and its currency per share (design §18.6).
  const perShare = spec.perShare === true;
  const decimals = (pairs: string | null) =>
    pairs === null || !perShare
      ? pairs
      : parsePairs(pairs)
          .map((p) => `${p.key}=${perShareText(p.value)}`)
          .join(' ');
  return {
    companyId,
    documentId,
    period: reportingPeriod,
    value: perShare ? perShareText(fact.value) : String(fact.value),
    currency: perShare ? `${figureCurrency(fact)}/share` : fact.unit,
    concept: fact.concept,
    start: fact.instant === true ? null : fact.start,
    end: fact.end,
    candidates: decimals(candidatesText(candidates)),
    confirmedBy: decimals(confirmations),
    sourceDetail: traceFieldsText(fact.trace),
  };
}

/** The currency of a fact's figure, whose yearly rate converts it: a per-share unit's too (`EUR/shares` → EUR). */
export const figureCurrency = (fact: Pick<FiledFact, 'unit'>): string => perShareCurrency(fact.unit) ?? fact.unit;
