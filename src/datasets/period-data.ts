/**
 * What a dataset knows of one company: its available periods and each one's records. The same
 * shape for every dataset, so period resolution, the cache and the route are written once.
 */
export interface CompanyData<R> {
  /** Periods covered by at least one processed document, most recent first. */
  readonly periods: readonly number[];
  /** Records of each available period (possibly none: a 204), ordered as the API returns them. */
  readonly records: ReadonlyMap<number, readonly R[]>;
}

/**
 * The years the API answers. The single call takes the spec's 2020..2026 (or -6..-1); history and
 * batch reach back to 2000, so every year the data holds is answered by one documented call, and
 * a period outside these years is neither listed nor sold (design §11.2).
 */
export const API_YEARS = { first: 2000, singleCallFirst: 2020, last: 2026 } as const;

/** Whether a documented call answers this year: history and batch do for all of {@link API_YEARS}. */
export function isAnsweredYear(period: number): boolean {
  return period >= API_YEARS.first && period <= API_YEARS.last;
}

/**
 * A company's data from its records by period: the periods the API answers (design §11.2), most
 * recent first; a year outside them (an old filing's comparative, a typo in a source) is dropped,
 * so it is never listed, sold or resolved by -N.
 */
export function companyDataOf<R>(byPeriod: ReadonlyMap<number, readonly R[]>): CompanyData<R> {
  const records = new Map<number, readonly R[]>();
  for (const [period, list] of byPeriod) if (isAnsweredYear(period)) records.set(period, list);
  return { periods: [...records.keys()].sort((a, b) => b - a), records };
}

export type PeriodOutcome<R> =
  | { kind: 'data'; period: number; records: readonly R[] }
  | { kind: 'no-data'; period: number }
  | { kind: 'not-covered'; period: number | undefined };

/**
 * Resolves `reporting_period` (a year, or -N for the N-th most recent available period) against a
 * company's data. A period is available when a processed document reports on it or holds a figure
 * for it; pending and failed documents count for nothing.
 */
export function resolvePeriod<R>(data: CompanyData<R>, requested: number): PeriodOutcome<R> {
  const period = requested < 0 ? data.periods[-requested - 1] : requested;
  if (period === undefined) return { kind: 'not-covered', period: undefined };
  const records = data.records.get(period);
  if (records === undefined) return { kind: 'not-covered', period };
  return records.length > 0 ? { kind: 'data', period, records } : { kind: 'no-data', period };
}

/**
 * Per-company data kept in memory between imports: the hot path then touches the database only
 * to charge. Bounded; dropped whole when the data version moves.
 */
export class CompanyDataCache<T> {
  readonly #entries = new Map<string, Promise<T>>();

  constructor(
    private readonly load: (companyId: string) => Promise<T>,
    private readonly capacity = 20_000,
  ) {}

  get(companyId: string): Promise<T> {
    const hit = this.#entries.get(companyId);
    if (hit !== undefined) return hit;
    const pending = this.load(companyId);
    pending.catch(() => this.#entries.delete(companyId));
    if (this.#entries.size >= this.capacity) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.set(companyId, pending);
    return pending;
  }

  clear(): void {
    this.#entries.clear();
  }
}
