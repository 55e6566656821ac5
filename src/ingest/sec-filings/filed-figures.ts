import { conceptRank, isAnnualForm, isAnnualPeriod, reportingPeriodOf } from './rules.js';

/** One revenue fact as a source gives it: a value of one concept, for one period, in one filing. */
export interface FiledFact {
  /** Prefixed: `us-gaap:Revenues`. */
  concept: string;
  /** Null when the source gives only the duration (a data set's 4 quarters), vouched annual by it. */
  start: string | null;
  end: string;
  value: number;
  unit: string;
  accession: string;
  form: string;
  filed: string;
}

/** A figure the database already holds for the company, read from a filing. */
export interface StoredFigure {
  accession: string;
  filed: string;
  end: string;
  value: number;
  currency: string;
}

/** A fact chosen to become a data point. */
export interface Figure {
  fact: FiledFact;
  reportingPeriod: number;
  /** True when an earlier filing gave this period another value. */
  restatement: boolean;
}

/** Why a revenue fact did not become a data point; counted in the ingest's summary. */
export type SkipReason =
  | 'not_annual_form'
  | 'not_annual_period'
  | 'not_currency'
  | 'lower_precedence_concept'
  | 'same_period_in_filing'
  | 'repeated_value'
  | 'already_stored'
  | 'no_fx_rate'
  | 'unknown_filer'
  | 'repeated_filer';

/**
 * Applies DESIGN §10.2–6 to every revenue fact of one filer: annual forms and periods, the
 * concept precedence per filing and period, one figure per filing and reporting period, and
 * first-reported plus restatements over time (`stored` takes part, so a later run that brings a
 * newer filing compares it with what the database holds). Returns the new figures only.
 */
export function selectFigures(
  facts: readonly FiledFact[],
  stored: readonly StoredFigure[],
  isCurrency: (unit: string) => boolean,
  skip: (reason: SkipReason) => void,
): Figure[] {
  // Per filing and period, the most preferred concept present.
  const byPeriod = new Map<string, FiledFact>();
  for (const f of facts) {
    // Readers keep revenue concepts only; a component slipping through must still never count.
    if (conceptRank(f.concept) === undefined) continue;
    if (!isAnnualForm(f.form)) skip('not_annual_form');
    else if (f.start !== null && !isAnnualPeriod(f.start, f.end)) skip('not_annual_period');
    else if (!isCurrency(f.unit)) skip('not_currency');
    else {
      const key = `${f.accession}|${f.start}|${f.end}`;
      const held = byPeriod.get(key);
      if (held === undefined) byPeriod.set(key, f);
      else {
        skip('lower_precedence_concept');
        if ((conceptRank(f.concept) ?? 99) < (conceptRank(held.concept) ?? 99)) byPeriod.set(key, f);
      }
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

  type Entry = { filed: string; accession: string; end: string; value: number; currency: string; fact?: FiledFact };
  const known = new Set(stored.map((s) => `${s.accession}|${s.end}`));
  const entries: Entry[] = stored.map((s) => ({ ...s }));
  for (const f of byFilingYear.values()) {
    if (known.has(`${f.accession}|${f.end}`)) skip('already_stored');
    else entries.push({ filed: f.filed, accession: f.accession, end: f.end, value: f.value, currency: f.unit, fact: f });
  }
  entries.sort((a, b) => cmp(a.end, b.end) || cmp(a.filed, b.filed) || cmp(a.accession, b.accession));

  const figures: Figure[] = [];
  let last: Entry | undefined;
  for (const e of entries) {
    const first = last === undefined || last.end !== e.end;
    const same = !first && last?.value === e.value && last.currency === e.currency;
    if (same) {
      if (e.fact !== undefined) skip('repeated_value');
      continue;
    }
    if (e.fact !== undefined) figures.push({ fact: e.fact, reportingPeriod: reportingPeriodOf(e.end), restatement: !first });
    last = e;
  }
  return figures;
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
