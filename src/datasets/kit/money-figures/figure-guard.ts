import { companionOf, conceptRank, type FigureSpec, guardOf } from '../../../ingest/core/figure-spec.js';

/** Another concept the filing tagged for the period, and whether the statements' arithmetic passed it over. */
export interface TraceCandidate {
  concept: string;
  value: number;
  /** Why it was passed over (design §18.4); null when it simply comes later in the order of preference. */
  passedOver: string | null;
}

/**
 * A filed figure's stored candidates, read with its spec (design §18.4): a candidate that comes
 * before the chosen concept in the order was passed over by the guard, and the guard's bounds it
 * was held against (cost of revenue, operating income) are stored after the candidates. Without a
 * spec, or for a spec without a guard, every stored pair is a candidate later in the order. The
 * spec's companions (design §18.5), stored last for `check-data`, are neither.
 */
export function readCandidates(
  figures: FigureSpec | undefined,
  chosen: string,
  all: ReadonlyArray<{ concept: string; value: number }>,
): { candidates: TraceCandidate[]; bounds: Array<{ concept: string; value: number }> } {
  const companion = figures === undefined ? undefined : companionOf(figures);
  const stored = companion === undefined ? all : all.filter((c) => !companion(c.concept));
  const guard = figures === undefined ? undefined : guardOf(figures);
  if (figures === undefined || guard === undefined) {
    return { candidates: stored.map((c) => ({ ...c, passedOver: null })), bounds: [] };
  }
  const rank = conceptRank(figures);
  const bounds = stored.filter((c) => guard(c.concept));
  // The bound a passed-over candidate fell under: the largest, which decides (design §18.4).
  const highest = bounds.reduce<{ concept: string; value: number } | undefined>(
    (max, b) => (max === undefined || b.value > max.value ? b : max),
    undefined,
  );
  const before = (concept: string) => (rank(concept) ?? 99) < (rank(chosen) ?? 99);
  const candidates = stored
    .filter((c) => !guard(c.concept))
    .map((c) => ({
      ...c,
      passedOver: !before(c.concept)
        ? null
        : c.value === 0 || highest === undefined
          ? 'zero, beside a larger candidate of the same filing'
          : `under the same filing's ${highest.concept} for the period`,
    }));
  return { candidates, bounds };
}
