import { isMicCode } from '../catalog/mic-codes.js';
import type { SourceRow } from './csv.js';

/**
 * FinanceDatabase names some exchanges by their operating MIC, which the API's list does not
 * hold; each maps to the segment MIC of its main regulated market (a segment of that operating MIC
 * in mic.csv, checked when the bundle is built).
 */
export const MAIN_MARKET_SEGMENT: Readonly<Record<string, string>> = {
  XJPX: 'XTKS',
  XMIL: 'MTAA',
  XNAS: 'XNGS',
  XWBO: 'WBAH',
  ASEX: 'XATH',
};

/** Checks the table above against the ISO 10383 list: each segment belongs to its operating MIC. */
export function checkSegments(micRows: readonly SourceRow[]): void {
  for (const [operating, segment] of Object.entries(MAIN_MARKET_SEGMENT)) {
    const row = micRows.find((r) => r.get('MIC') === segment);
    if (row?.get('OPERATING MIC') !== operating || !isMicCode(segment)) {
      throw new Error(`mic.csv: ${segment} is not a listed segment of ${operating}`);
    }
  }
}

/** The API MIC for a source MIC, or undefined when the API's list has none for it. */
export function apiMic(sourceMic: string): string | undefined {
  if (isMicCode(sourceMic)) return sourceMic;
  return MAIN_MARKET_SEGMENT[sourceMic];
}

const US_STATES = new Set(
  (
    'Alabama Alaska Arizona Arkansas California Colorado Connecticut Delaware Florida Georgia Hawaii Idaho Illinois Indiana Iowa ' +
    'Kansas Kentucky Louisiana Maine Maryland Massachusetts Michigan Minnesota Mississippi Missouri Montana Nebraska Nevada ' +
    'New_Hampshire New_Jersey New_Mexico New_York North_Carolina North_Dakota Ohio Oklahoma Oregon Pennsylvania Rhode_Island ' +
    'South_Carolina South_Dakota Tennessee Texas Utah Vermont Virginia Washington West_Virginia Wisconsin Wyoming D.C.'
  )
    .split(' ')
    .map((s) => s.replace(/_/g, ' ')),
);

/** The country of an S&P 500 "Headquarters Location" ("City, State" is the United States). */
export function countryOfHeadquarters(location: string): string | null {
  const last = (location.split(',').pop() ?? '').replace(/\[[0-9]+\]/g, '').trim();
  if (last === '' || last.toLowerCase() === 'none') return null;
  return US_STATES.has(last) ? 'United States' : last;
}

/** A Yahoo symbol without its exchange suffix: `VOW3.DE` → `VOW3`, `0034.HK` → `0034`. */
export function tickerOfSymbol(symbol: string): string {
  const dot = symbol.lastIndexOf('.');
  return dot > 0 ? symbol.slice(0, dot) : symbol;
}
