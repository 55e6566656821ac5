import { stableId } from './stable-id.js';

/** A data point's id: stable across imports, so a re-import or an export round trip keeps its links. */
export function pointId(documentId: string, period: number): string {
  return stableId(`revenue-point:${documentId}:${period}`);
}

/** FX rates known so far, by `currency:year`: the database's, overlaid by the bundle's as they are read. */
export type Rates = Map<string, { usdPerUnit: string; source: string }>;
export const rateKey = (currency: string, year: number) => `${currency}:${year}`;

/** What a USD figure records as its rate: it passes through unconverted. */
export const USD_RATE: Readonly<{ usdPerUnit: string; source: string }> = {
  usdPerUnit: '1',
  source: 'USD figure, no conversion',
};
