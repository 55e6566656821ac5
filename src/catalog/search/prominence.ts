/**
 * Exchanges by market capitalization, as DESIGN §1.3 orders them to pick "the first matching
 * ticker"; each group is one exchange's market codes. Search reads the same order to weigh a
 * company's listings.
 */
export const EXCHANGE_ORDER: readonly (readonly string[])[] = [
  ['XNYS'],
  ['XNGS', 'XNMS', 'XNCM', 'XNAS'],
  ['XSHG'],
  ['XTKS'],
  ['XPAR', 'XAMS', 'XBRU', 'XLIS', 'XDUB', 'XOSL', 'MTAA'],
  ['XNSE'],
  ['XSHE'],
  ['XHKG'],
  ['XBOM'],
  ['XSAU'],
  ['XLON'],
  ['XTSE', 'XTSX'],
  ['XETR', 'XFRA'],
  ['XSWX'],
  ['XKRX', 'XKOS'],
  ['XSTO', 'XHEL', 'XCSE', 'XICE'],
  ['XTAI'],
  ['XASX'],
];

const EXCHANGE_RANK = new Map(EXCHANGE_ORDER.flatMap((mics, rank) => mics.map((mic) => [mic, rank] as const)));

/** The exchange's place in {@link EXCHANGE_ORDER} (0 is NYSE); undefined for every other market. */
export function exchangeRank(micCode: string): number | undefined {
  return EXCHANGE_RANK.get(micCode);
}

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
