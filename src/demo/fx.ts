import { isCurrency, SUB_UNITS } from '../money/currencies.js';
import type { SourceRow } from './csv.js';
import { invertRate } from './invert-rate.js';
import { FIRST_PERIOD, LAST_PERIOD } from './revenues.js';

export interface DemoRate {
  currency: string;
  year: number;
  usdPerUnit: string;
  source: string;
}

/**
 * Yearly rates from the derived table (units per USD), inverted to USD per unit. USD needs none,
 * and ZAC/ILA take the ZAR/ILS rates at import, so neither gets a row.
 */
export function yearlyRates(rows: readonly SourceRow[]): DemoRate[] {
  const rates: DemoRate[] = [];
  for (const row of rows) {
    const currency = row.get('currency');
    const year = Number(row.get('year'));
    const units = row.get('units_per_usd');
    if (units === '' || currency === 'USD' || !isCurrency(currency) || SUB_UNITS[currency] !== undefined) continue;
    if (year < FIRST_PERIOD || year > LAST_PERIOD) continue;
    rates.push({
      currency,
      year,
      usdPerUnit: invertRate(units),
      source: `${row.get('source')}, ${row.get('method')}, inverted to USD per unit`,
    });
  }
  return rates.sort((a, b) => (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : a.year - b.year));
}
