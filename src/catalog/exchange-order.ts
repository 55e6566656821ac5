/**
 * Exchanges by market capitalization, as design §1.3 orders them to pick "the first matching
 * ticker"; each group is one exchange's market codes. Search reads the same order to weigh a
 * company's listings (search/prominence.ts).
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

/**
 * The order of listings that share a ticker (design §1.3): the exchange first in
 * {@link EXCHANGE_ORDER}, every other market after them in alphabetical order of its MIC; then the
 * primary listing; then the earliest added. So a plain `MRK` is Merck & Co. (NYSE), not Merck KGaA
 * (Xetra), whichever was added first.
 */
export function compareByExchange(
  a: { micCode: string; isPrimary: boolean; addedSeq: number },
  b: { micCode: string; isPrimary: boolean; addedSeq: number },
): number {
  const ra = exchangeRank(a.micCode) ?? EXCHANGE_ORDER.length;
  const rb = exchangeRank(b.micCode) ?? EXCHANGE_ORDER.length;
  if (ra !== rb) return ra - rb;
  if (ra === EXCHANGE_ORDER.length && a.micCode !== b.micCode) return a.micCode < b.micCode ? -1 : 1;
  if (a.isPrimary !== b.isPrimary) return a.isPrimary ? -1 : 1;
  return a.addedSeq - b.addedSeq;
}
