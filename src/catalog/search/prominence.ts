import { exchangeRank } from '../exchange-order.js';
/** What the catalog knows of a company that tells a large company from its small namesakes. */
export interface ProminenceInputs {
  /** The market codes of its listings. */
  readonly micCodes: readonly string[];
  /** Whether any processed document holds data of it. */
  readonly hasData?: boolean;
  /** Whether the SEC counts it a large accelerated filer, where that is known. */
  readonly largeAcceleratedFiler?: boolean;
}

/** Prominence runs from 0 (nothing known) to this. */
export const MAX_PROMINENCE = 7;

/**
 * A company's prominence, 0 to {@link MAX_PROMINENCE}: a tie-breaker among companies that match a
 * query equally well, so "coca cola" puts The Coca-Cola Company before its bottlers and "ericsson"
 * puts Ericsson before a small namesake. Made only of what the catalog holds, and so the same for
 * the same catalog:
 *
 * - its best exchange: 3 for the first five exchanges of {@link EXCHANGE_ORDER} (NYSE, Nasdaq,
 *   Shanghai, Japan, Euronext), 2 for the next seven, 1 for the rest of the list, 0 elsewhere
 *   (OTC markets, small exchanges): large companies list where capital is deepest;
 * - its markets: 1 more for two, 2 more for three or more: a company traded on several markets
 *   is rarely a small one (listings on one market count once: a small company's units, warrants
 *   and rights are three listings on one exchange);
 * - 1 when processed documents hold data of it (the catalog's own sign that it matters);
 * - 1 when it is a large accelerated filer (SEC: a public float of $700 million or more).
 *
 * The sum is capped at {@link MAX_PROMINENCE}.
 */
export function prominence(inputs: ProminenceInputs): number {
  let best: number | undefined;
  for (const mic of inputs.micCodes) {
    const rank = exchangeRank(mic);
    if (rank !== undefined && (best === undefined || rank < best)) best = rank;
  }
  const exchange = best === undefined ? 0 : best < 5 ? 3 : best < 12 ? 2 : 1;
  const markets = new Set(inputs.micCodes).size;
  const listings = markets >= 3 ? 2 : markets === 2 ? 1 : 0;
  const score = exchange + listings + (inputs.hasData === true ? 1 : 0) + (inputs.largeAcceleratedFiler === true ? 1 : 0);
  return Math.min(MAX_PROMINENCE, score);
}
