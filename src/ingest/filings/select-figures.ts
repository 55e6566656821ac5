import { disclosureOrder } from '../../db/disclosure.js';
import { perShareCurrency } from '../../money/per-share.js';
import { type ConceptRank, companionOf, conceptRank, type FigureSpec, guardOf } from '../core/figure-spec.js';
import { isAnnualPeriod, reportingPeriodOf } from './periods.js';
import type { FiledFact } from './source.js';

export type { FiledFact } from './source.js';

/** A figure the database already holds for the company and spec, read from a filing of the same source. */
export interface StoredFigure {
  accession: string;
  /** The document's published_on: '' when its source gave no date. */
  filed: string;
  end: string;
  value: number;
  currency: string;
  /** The document's reporting period: where an undated filing stands in time (`db/disclosure.ts`). */
  filingPeriod?: number;
}

/** Another concept of the spec the same filing tagged for the same period, and its value. */
export interface Candidate {
  concept: string;
  value: number;
}

/** A fact chosen to become a data point. */
export interface Figure {
  fact: FiledFact;
  reportingPeriod: number;
  /** True when an earlier filing gave this period another value. */
  restatement: boolean;
  /** The spec's other concepts the filing tagged for the period, in order of preference (design §10.3). */
  candidates: Candidate[];
}

/**
 * A later filing whose value is a kept figure rounded to the later value's precision (design
 * §10.6): the same figure, less precise. It adds no data point; the kept one names it.
 */
export interface Confirmation {
  /** The kept figure: its filing and period end (a new figure of this run, or a stored one). */
  accession: string;
  end: string;
  /** The later fact that confirms it. */
  by: FiledFact;
}

/** Why a fact did not become a data point; counted in the ingest's summary. */
export type SkipReason =
  | 'not_annual_form'
  | 'not_annual_period'
  | 'not_currency'
  | 'lower_precedence_concept'
  | 'below_filing_arithmetic'
  | 'same_period_in_filing'
  | 'repeated_value'
  | 'rounded_value'
  | 'already_stored'
  | 'no_fx_rate'
  | 'unknown_filer'
  | 'ambiguous_filer'
  | 'repeated_filer';

/** What decides which facts of a filer count, for one figure spec and one source. */
export interface SelectionRules {
  /** The spec's concepts in order of preference; a fact of another concept is ignored. */
  rank: ConceptRank;
  isCurrency: (unit: string) => boolean;
  /** The source's annual-report forms. */
  isAnnualForm: (form: string) => boolean;
  /**
   * The spec's guard concepts (design §18.4): their facts are never figures, only the bounds a
   * candidate of the same filing and period must reach. Without it, no guard.
   */
  guard?: (concept: string) => boolean;
  /**
   * The spec's companion concepts (design §18.5): their facts are stored after each figure's
   * candidates (and bounds), one value each, for `check-data`; they never choose. Without it, none.
   */
  companion?: (concept: string) => boolean;
  /**
   * The period a filing of this input reports on (its latest fiscal year): where a filing without
   * a filed date stands in time. Without it, the period of the fact's own end.
   */
  filingPeriod?: (accession: string) => number | undefined;
  /**
   * The spec's figures are balances at fiscal-year ends (design §18.1): instants whose date ends an
   * annual duration the filer tags in an annual-report form. Otherwise annual durations.
   */
  yearEnd?: boolean;
  /**
   * With `yearEnd`: the filer's fiscal-year ends ({@link fiscalYearEnds} of all its facts), when the
   * caller has them already, reading one filer for many specs, or passes only the spec's own facts.
   * Without it, they are found in the facts given.
   */
  yearEnds?: ReadonlySet<string>;
}

/** The selection rules of one figure spec for one source: its concepts' order and its guard. */
export function selectionRules(
  spec: FigureSpec,
  isCurrency: SelectionRules['isCurrency'],
  isAnnualForm: SelectionRules['isAnnualForm'],
  filingPeriod?: SelectionRules['filingPeriod'],
): SelectionRules {
  // A per-share spec reads `{currency}/shares` facts; the currency decides as for any figure.
  const isUnit = spec.perShare === true ? (unit: string) => isCurrency(perShareCurrency(unit) ?? '') : isCurrency;
  return {
    rank: conceptRank(spec),
    guard: guardOf(spec),
    companion: companionOf(spec),
    isCurrency: isUnit,
    isAnnualForm,
    filingPeriod,
    ...(spec.period === 'year end' ? { yearEnd: true } : {}),
  };
}

/**
 * The filer's fiscal-year ends (design §18.1): the end dates of the annual durations its facts
 * give in annual-report forms, whatever their concept.
 */
export function fiscalYearEnds(facts: readonly FiledFact[], isAnnualForm: (form: string) => boolean): ReadonlySet<string> {
  const ends = new Set<string>();
  for (const f of facts) {
    if (f.instant !== true && isAnnualForm(f.form) && (f.start === null || isAnnualPeriod(f.start, f.end))) ends.add(f.end);
  }
  return ends;
}

/**
 * Applies design §10.2–6 to every fact of one filer for one figure spec: annual forms and
 * periods, the spec's concept precedence per filing and period, one figure per filing and
 * reporting period, and first-reported plus restatements over time (`stored` takes part, so a
 * later run that brings a newer filing compares it with what the database holds). Returns the new
 * figures only.
 */
export function selectFigures(
  facts: readonly FiledFact[],
  stored: readonly StoredFigure[],
  rules: SelectionRules,
  skip: (reason: SkipReason) => void,
): Figure[] {
  return selectFiguresAndConfirmations(facts, stored, rules, skip).figures;
}

/**
 * {@link selectFigures}, and the later filings that confirm a kept figure by repeating it rounded
 * (design §10.6), so its trace can name them.
 */
export function selectFiguresAndConfirmations(
  facts: readonly FiledFact[],
  stored: readonly StoredFigure[],
  rules: SelectionRules,
  skip: (reason: SkipReason) => void,
): { figures: Figure[]; confirmations: Confirmation[] } {
  const { rank, isCurrency, isAnnualForm } = rules;
  const yearEnds = rules.yearEnd === true ? (rules.yearEnds ?? fiscalYearEnds(facts, isAnnualForm)) : undefined;
  // A year's amount is an annual duration; a year-end balance an instant at a fiscal-year end.
  const inPeriod = (f: FiledFact): boolean =>
    yearEnds === undefined
      ? f.instant !== true && (f.start === null || isAnnualPeriod(f.start, f.end))
      : f.instant === true && yearEnds.has(f.end);
  // Per filing and period: the concepts tagged, and the guard's bounds.
  const tagged = new Map<string, FiledFact[]>();
  const bounds = new Map<string, FiledFact[]>();
  const companions = new Map<string, FiledFact[]>();
  for (const f of facts) {
    // Readers keep every spec's concepts: another spec's, or a component, never counts here.
    if (rank(f.concept) === undefined) {
      if (rules.guard?.(f.concept) === true) {
        const key = periodKey(f);
        push(bounds, key, f);
      }
      if (rules.companion?.(f.concept) === true) {
        const key = periodKey(f);
        push(companions, key, f);
      }
      continue;
    }
    if (!isAnnualForm(f.form)) skip('not_annual_form');
    else if (!inPeriod(f)) skip('not_annual_period');
    else if (!isCurrency(f.unit)) skip('not_currency');
    else {
      const key = periodKey(f);
      push(tagged, key, f);
    }
  }
  // Per filing and period, the most preferred concept present that the statements' arithmetic
  // does not pass over; the others are its candidates.
  const byPeriod = new Map<string, FiledFact>();
  const passedOver = new Set<string>();
  for (const [key, group] of tagged) {
    // Unguarded, there are no bounds either.
    const { chosen, passed } = chooseConcept(group, bounds.get(key) ?? [], rank, rules.guard !== undefined);
    byPeriod.set(key, chosen);
    if (passed.length > 0) passedOver.add(key);
    for (const f of group) {
      if (f === chosen) continue;
      skip(passed.includes(f) ? 'below_filing_arithmetic' : 'lower_precedence_concept');
    }
  }
  // One figure per filing and reporting period: the later end (a fiscal-year change) wins.
  const byFilingYear = new Map<string, FiledFact>();
  for (const f of byPeriod.values()) {
    const key = `${f.accession}|${reportingPeriodOf(f.end)}`;
    const held = byFilingYear.get(key);
    if (held === undefined) byFilingYear.set(key, f);
    else {
      skip('same_period_in_filing');
      if (f.end > held.end) byFilingYear.set(key, f);
    }
  }

  // In order of disclosure: a filing without a date (an ESEF report no index lists) stands where its
  // year of disclosure puts it, after the filings published in the year it reports on.
  type Entry = { order: string; accession: string; end: string; value: number; currency: string; fact?: FiledFact };
  const known = new Set(stored.map((s) => `${s.accession}|${s.end}`));
  const entries: Entry[] = stored.map((s) => ({
    order: disclosureOrder(s.filed, s.filingPeriod ?? reportingPeriodOf(s.end)),
    accession: s.accession,
    end: s.end,
    value: s.value,
    currency: s.currency,
  }));
  for (const f of byFilingYear.values()) {
    if (known.has(`${f.accession}|${f.end}`)) skip('already_stored');
    else {
      const order = disclosureOrder(f.filed, rules.filingPeriod?.(f.accession) ?? reportingPeriodOf(f.end));
      entries.push({ order, accession: f.accession, end: f.end, value: f.value, currency: f.unit, fact: f });
    }
  }
  entries.sort((a, b) => cmp(a.end, b.end) || cmp(a.order, b.order) || cmp(a.accession, b.accession));

  const figures: Figure[] = [];
  const confirmations: Confirmation[] = [];
  let last: Entry | undefined;
  for (const e of entries) {
    const first = last === undefined || last.end !== e.end;
    const sameCurrency = !first && last?.currency === e.currency;
    if (sameCurrency && last?.value === e.value) {
      if (e.fact !== undefined) skip('repeated_value');
      continue;
    }
    if (sameCurrency && last !== undefined && isRoundedFrom(last.value, e.value)) {
      if (e.fact !== undefined) {
        skip('rounded_value');
        confirmations.push({ accession: last.accession, end: last.end, by: e.fact });
      }
      continue;
    }
    if (e.fact !== undefined) {
      const f = e.fact;
      const key = periodKey(f);
      const candidates = candidatesOf(f, tagged.get(key) ?? [], rank);
      figures.push({
        fact: f,
        reportingPeriod: reportingPeriodOf(e.end),
        restatement: !first,
        // Where the guard passed a candidate over, the bounds it was held against come after the
        // candidates, so the trace can show why: one value each, in the order read (no bound is ranked).
        // The companions last (design §18.5), in the order read: what check-data's cross-checks read.
        candidates: [
          ...candidates,
          ...(passedOver.has(key) ? candidatesOf(f, bounds.get(key) ?? [], rank) : []),
          ...candidatesOf(f, companions.get(key) ?? [], rank),
        ],
      });
    }
    last = e;
  }
  return { figures, confirmations };
}

/**
 * The statements' arithmetic (design §18.4): the most preferred candidate, unless the filing tags
 * a larger one for the same period and it is zero or under one of the guard's bounds (cost of
 * revenue, operating income) of the same filing and period; then the next in the order. A lone
 * candidate, or the largest, is never passed over: a company may sell below cost. Unguarded (a
 * spec without a guard), the first in the order.
 */
export function chooseConcept(
  group: readonly FiledFact[],
  bounds: readonly FiledFact[],
  rank: ConceptRank,
  guarded = true,
): { chosen: FiledFact; passed: FiledFact[] } {
  // Stable: among facts of one concept the first read stays first, as before the guard.
  const ordered = [...group].sort((a, b) => (rank(a.concept) ?? 99) - (rank(b.concept) ?? 99));
  const passed: FiledFact[] = [];
  for (const f of ordered) {
    if (passed.includes(f)) continue;
    const larger = group.some((o) => o.unit === f.unit && o.value > f.value);
    const floor = Math.max(...bounds.filter((b) => b.unit === f.unit).map((b) => b.value));
    if (guarded && larger && (f.value === 0 || f.value < floor)) {
      passed.push(...group.filter((o) => o.concept === f.concept));
      continue;
    }
    return { chosen: f, passed };
  }
  // Unreachable: the largest candidate is never passed over.
  throw new Error('chooseConcept: every candidate passed over');
}

/** Adds a fact to its group: in place, as facts of one filing and period can be many. */
function push(groups: Map<string, FiledFact[]>, key: string, f: FiledFact): void {
  const group = groups.get(key);
  if (group === undefined) groups.set(key, [f]);
  else group.push(f);
}

/** A fact's filing and period: the facts that compete to be one figure. */
const periodKey = (f: FiledFact): string => `${f.accession}|${f.start}|${f.end}`;

/**
 * The other concepts tagged beside the chosen fact, one value each, most preferred first; among
 * concepts the spec does not rank (a guard's bounds), in the order read: the sort is stable.
 */
function candidatesOf(chosen: FiledFact, tagged: readonly FiledFact[], rank: ConceptRank): Candidate[] {
  const byConcept = new Map<string, number>();
  for (const f of tagged) {
    if (f.concept !== chosen.concept && f.unit === chosen.unit && !byConcept.has(f.concept)) byConcept.set(f.concept, f.value);
  }
  return [...byConcept].sort(([a], [b]) => (rank(a) ?? 99) - (rank(b) ?? 99)).map(([concept, value]) => ({ concept, value }));
}

/**
 * True when `later` is `earlier` rounded to the later value's own precision: its trailing zeros,
 * counted up to millions (Adobe 2018: 9,030,008,000 filed, then 9,030,000,000). Rounding is half
 * away from zero. An equal value is a repeat, not a rounding.
 */
export function isRoundedFrom(earlier: number, later: number): boolean {
  if (later === earlier || later === 0) return false;
  let unit = 1;
  while (unit < 1_000_000 && later % (unit * 10) === 0) unit *= 10;
  if (unit === 1) return false;
  const rounded = Math.sign(earlier) * Math.round(Math.abs(earlier) / unit) * unit;
  return rounded === later;
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
