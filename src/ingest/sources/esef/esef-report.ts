import type { Decimals } from './exact-value.js';

/**
 * Why a fact of a concept asked for was left out of a report's figures (design §14.2, §14.3);
 * facts of other concepts are read past, not counted.
 */
export const ESEF_SKIP_REASONS = [
  /** Tagged on an axis (a segment, a component of equity): not the entity's own total. */
  'dimensional',
  /** A duration that is not 52/53 weeks or 12 months. */
  'not_annual',
  /** No unit, or one that is neither an ISO 4217 currency nor one per share (shares, ratios). */
  'not_currency',
  /** A nil value (`null`). */
  'nil',
  /** Another entity than the report's own. */
  'other_entity',
  /** Beyond the whole numbers a figure is stored in (±2⁵³). */
  'value_too_large',
  /** A repeat of a fact giving the same value: one fact is kept. */
  'duplicate',
  /** Facts of one concept and period with different values: the report's figure for it is not taken. */
  'inconsistent_duplicates',
] as const;

export type EsefSkipReason = (typeof ESEF_SKIP_REASONS)[number];
export type EsefSkips = Record<EsefSkipReason, number>;

export const noSkips = (): EsefSkips => Object.fromEntries(ESEF_SKIP_REASONS.map((r) => [r, 0])) as EsefSkips;

/** One annual, non-dimensional, monetary fact of a concept asked for, as the report tags it. */
export interface EsefFact {
  /** The fact's id in the report (`fact-10`, `Tag3`, `f-1`): what its trace names. */
  id: string;
  /** Ids of other facts of the report that gave the same value (merged into this one). */
  duplicates: string[];
  /** The concept with its usual prefix (`ifrs-full:Revenue`), whatever prefix the report binds. */
  concept: string;
  /** First and last day of the period (the OIM's exclusive end made inclusive); an instant's date twice. */
  start: string;
  end: string;
  /** A balance at one date (a balance sheet's, design §18.1). */
  instant: boolean;
  /** design §10.4 on `end`. */
  reportingPeriod: number;
  /** The value as tagged, rounded half away from zero to a whole unit (per share: to a millionth, in millionths). */
  value: number;
  /** The value exactly as the report writes it (`"20935000000.0"`). */
  text: string;
  /** ISO 4217 code of the unit (`EUR`): the original currency. */
  currency: string;
  /** Whether the unit is the currency per share (`iso4217:EUR/xbrli:shares`). */
  perShare: boolean;
  /** Precision as tagged (never a scale); null when the fact gives none. */
  decimals: Decimals | null;
}

/**
 * An xBRL-JSON report read into what the sources' shared pipeline needs, with nothing of the
 * format left: who filed it, what it is, and its figures for the concepts asked for.
 */
export interface EsefReport {
  /** The file (or `zip:entry`) it was read from, for messages. */
  source: string;
  /** The file's name (`…-2024-12-31-0-es.json`). */
  name: string;
  /** The entity as the report writes it (`scheme:549300LHK07F2CHV4X31`); null without facts. */
  entity: string | null;
  /** The entity's LEI when its scheme is ISO 17442 and the LEI is valid; null otherwise. */
  lei: string | null;
  /** `ifrs-full:NameOfReportingEntityOrOtherMeansOfIdentification`, when tagged. */
  entityName: string | null;
  /** documentInfo.documentType (`https://xbrl.org/2021/xbrl-json`). */
  documentType: string;
  /** documentInfo.taxonomy: the entry points the report was filed against. */
  taxonomy: string[];
  /** The language most of its text facts are in (`es`, `en`); null when it has none. */
  language: string | null;
  /** Last day of the latest annual period any fact of the entity covers: the report's period end. */
  periodEnd: string | null;
  /** Facts in the report, of every concept. */
  factsRead: number;
  /** The concepts' facts kept, in the order first met. */
  facts: EsefFact[];
  /** The concepts' facts left out, by reason. */
  skipped: EsefSkips;
}
