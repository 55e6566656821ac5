import type { FigureTableName } from '../../db/schema.js';

/**
 * A dataset of figures read from filings (design §10, §14, §17): revenues, net income. It declares
 * which concepts it reads and where its figures go; the filings pipeline (`ingest/filings/`) and
 * the demo builder apply the same rules to every spec — annual forms and periods, concept
 * precedence per filing and period, restatements, rounding confirmations, FX — so a new figure
 * from filings is a spec, not a change to the pipeline. The list of specs is composed by the
 * caller (the CLI, the demo builder's main) and passed down; nothing below imports it.
 */
export interface FigureSpec {
  /** The dataset's name, as its counts are keyed in an ingest's summary: `revenues`, `net-income`. */
  readonly name: string;
  /** What its records call the metric: `Total Revenue`, `Net Income`. */
  readonly metric: string;
  /** The metric in running text (reports, messages): `revenue`, `net income`. */
  readonly noun: string;
  /**
   * Concepts read, per taxonomy, most preferred first: a filing that tags one period with several
   * is read from the first present, the others kept as its candidates. Prefixed names
   * (`us-gaap:Revenues`, `ifrs-full:Revenue`); a filing uses one taxonomy, so the order between
   * taxonomies never decides.
   */
  readonly concepts: Readonly<Record<string, readonly string[]>>;
  /**
   * The statements' arithmetic a candidate must pass (design §18.4): concepts per taxonomy whose
   * value, tagged by the same filing for the same period, a candidate must reach when the filing
   * also tags a larger candidate (revenue: cost of revenue and operating income). Absent: no guard.
   */
  readonly guard?: Readonly<Record<string, readonly string[]>>;
  /**
   * Other lines of the statements the cross-checks of `check-data` read beside each figure (design
   * §18.5: gross profit's cost of revenue, equity's non-controlling interest): concepts per taxonomy
   * whose value, tagged by the same filing for the same period, is stored after the figure's
   * candidates. They never choose or become a figure.
   */
  readonly companions?: Readonly<Record<string, readonly string[]>>;
  /**
   * `year` (the default): an amount over a fiscal year, an annual duration (design §10.2).
   * `year end`: a balance at one of the filer's fiscal-year ends, an instant (design §18.1).
   */
  readonly period?: 'year' | 'year end';
  /**
   * Its figures are per share (design §18.2: diluted EPS): facts in `{currency}/shares`, values in
   * millionths (`PER_SHARE_SCALE`), the USD value rounded to 4 decimals.
   */
  readonly perShare?: true;
  /** The table its figures are written to: one of `FigureTables` (src/db/schema.ts), all of one shape. */
  readonly table: FigureTableName;
  /** Its file in an import bundle: `revenues.csv`, `net_income.csv`. */
  readonly bundleFile: string;
  /**
   * The file's columns as export and the demo write them, in this order: company, document,
   * reporting period, value, currency, then concept, period start and end, candidates and
   * confirmed_by (`company_id, document_id, reporting_period, value, currency, concept, …`).
   */
  readonly bundleColumns: readonly string[];
  /** A figure's stable id: one per document and reporting period, the same as its bundle import gives. */
  pointId(documentId: string, reportingPeriod: number): string;
}

/** A concept's place in a spec's preference (0 first), or undefined when the spec does not read it. */
export type ConceptRank = (concept: string) => number | undefined;

/** Every concept a spec reads, in order of preference (taxonomies in the order the spec lists them). */
export const conceptsOf = (spec: FigureSpec): string[] => Object.values(spec.concepts).flat();

/** The ranking of a spec's concepts. */
export function conceptRank(spec: FigureSpec): ConceptRank {
  const rank = new Map(conceptsOf(spec).map((c, i) => [c, i]));
  return (concept) => rank.get(concept);
}

/** A spec's guard concepts (design §18.4), in the order it lists them. */
export const guardConceptsOf = (spec: FigureSpec): string[] => Object.values(spec.guard ?? {}).flat();

/** Whether a concept is one of a spec's guard concepts; undefined for a spec without a guard. */
export function guardOf(spec: FigureSpec): ((concept: string) => boolean) | undefined {
  if (spec.guard === undefined) return undefined;
  const guard = new Set(guardConceptsOf(spec));
  return (concept) => guard.has(concept);
}

/** Whether a concept is one of a spec's companion concepts (design §18.5); undefined for a spec without any. */
export function companionOf(spec: FigureSpec): ((concept: string) => boolean) | undefined {
  if (spec.companions === undefined) return undefined;
  const companions = new Set(companionConceptsOf(spec));
  return (concept) => companions.has(concept);
}

/**
 * The concepts any of `specs` reads, their guards' included: what a source's reader keeps of a
 * filing.
 */
export const conceptsOfAll = (specs: readonly FigureSpec[]): ReadonlySet<string> =>
  new Set(specs.flatMap((s) => [...conceptsOf(s), ...guardConceptsOf(s), ...companionConceptsOf(s)]));

/** A spec's companion concepts (design §18.5), in the order it lists them. */
export const companionConceptsOf = (spec: FigureSpec): string[] => Object.values(spec.companions ?? {}).flat();
