/**
 * The source seam (design §15): a source reads its input into filers, their filings and facts; the
 * shared pipeline (`ingest-filings.ts`) matches companies, selects figures for every figure spec,
 * assigns periods, detects restatements and writes documents identified by the source's name and
 * its key for the filing. A source is SEC companyfacts or data sets (`sources/sec/sec-source.ts`)
 * or ESEF reports (`sources/esef/esef-source.ts`).
 */

/** One fact as a source gives it: a value of one concept, for one period, in one filing. */
export interface FiledFact {
  /** Prefixed: `us-gaap:Revenues`, `ifrs-full:Revenue`. */
  concept: string;
  /**
   * Null when the source gives only the duration (a data set's 4 quarters), vouched annual by it;
   * an instant's own date (`instant`).
   */
  start: string | null;
  /** Inclusive, YYYY-MM-DD (a source with exclusive ends converts them); an instant's date. */
  end: string;
  /** A balance at one date (a balance sheet's), not an amount over a period (design §18.1). */
  instant?: true;
  /** A whole amount of `unit`; a per-share value (`USD/shares`) in millionths (`PER_SHARE_SCALE`, money/per-share.ts). */
  value: number;
  /**
   * ISO currency (`USD`, `EUR`) for a money fact, `{currency}/shares` for a per-share one; anything
   * else is not a currency and is skipped.
   */
  unit: string;
  /** The filing's key in its source: SEC's accession number, an ESEF report's `fxo_id`. */
  accession: string;
  /** The filing's form as its source names it (`10-K`, `20-F/A`; an ESEF report's `ESEF`). */
  form: string;
  /** When the filing was published, YYYY-MM-DD; empty when the source does not say. */
  filed: string;
  /**
   * What the figure's trace page shows of this fact beyond the fields every source shares (concept,
   * period, filed date, the document): the source says it here, in its own words, and it is stored
   * with the figure (`source_detail`). ESEF: the LEI, `fxo_id`, the fact's id, unit and decimals,
   * links to the report and its viewer. Absent when the source has nothing more (SEC).
   */
  trace?: readonly SourceTraceField[];
}

/** One line a source adds to a figure's trace page: a label and its value, shown as text, code or a link. */
export interface SourceTraceField {
  label: string;
  value: string;
  /** `code` for an identifier, `link` for an http(s) URL; plain text otherwise. */
  kind?: 'code' | 'link';
}

/** Trace fields as stored in a figure's `source_detail`: JSON; null when there are none. */
export const traceFieldsText = (fields: readonly SourceTraceField[] | undefined): string | null =>
  fields === undefined || fields.length === 0 ? null : JSON.stringify(fields);

/** Stored trace fields read back; anything malformed is left out (a page never fails on them). */
export function parseTraceFields(text: string | null): SourceTraceField[] {
  if (text === null || text === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed.flatMap((f: unknown): SourceTraceField[] => {
    if (typeof f !== 'object' || f === null) return [];
    const { label, value, kind } = f as Record<string, unknown>;
    if (typeof label !== 'string' || typeof value !== 'string') return [];
    if (kind === 'link') return /^https?:\/\//.test(value) ? [{ label, value, kind }] : [{ label, value }];
    return kind === 'code' ? [{ label, value, kind }] : [{ label, value }];
  });
}

/**
 * Who filed, as a source knows them: SEC gives a CIK, ESEF an LEI, and either may give a name
 * and country. A filer is matched to a catalog company by the first it has of CIK, LEI, then
 * normalized name and country (design §10.1, §14.1).
 */
export interface FilerIdentity {
  cik?: string;
  lei?: string;
  name: string;
  /**
   * The country as the catalog writes it (an English name: `Spain`, `United Kingdom`), when the
   * source gives one; a source that has ISO codes (ESEF's `ES`) names them so.
   */
  country?: string;
}

/**
 * Every kept fact of one filer that a source holds, with the file it came from: all of its
 * filings in one filer (a source of one file per filing gathers them, as the data sets reader
 * does across quarters), since restatements are found across them; the same company given twice
 * in one run is skipped as `repeated_filer`.
 */
export interface Filer extends FilerIdentity {
  facts: FiledFact[];
  /** The file (or zip entry) read, for messages. */
  source: string;
}

/** What a filing becomes in the documents table. */
export interface FilingDocument {
  documentId: string;
  title: string;
  sourceUrl: string;
  /** SEC's own columns, kept for SEC filings (bundles carry them); null for other sources. */
  form: string | null;
  accession: string | null;
}

/** What the pipeline asks of a source beyond its facts. */
export interface FilingSource {
  /** Stored as each document's `source`; with the filing's key it identifies the document. */
  readonly name: string;
  /** Whether a filing of this form is an annual report whose figures count. */
  isAnnualForm(form: string): boolean;
  /** The document a filing of `filer` is; `fact.accession` is the filing's key. */
  document(filer: Filer, fact: FiledFact): FilingDocument;
}
