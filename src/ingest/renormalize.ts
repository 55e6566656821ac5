import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { SUB_UNITS } from '../revenues/currencies.js';
import { toUsd } from '../revenues/normalize.js';

type Rates = ReadonlyMap<string, { usdPerUnit: string; source: string }>;

/**
 * Recomputes the USD value of every stored data point whose currency-year rate this import
 * changed, so no figure keeps a value computed with a rate the database no longer holds.
 */
export async function renormalize(trx: Transaction<Database>, before: Rates, after: Rates): Promise<number> {
  let updated = 0;
  for (const [key, rate] of after) {
    const old = before.get(key);
    if (old !== undefined && old.usdPerUnit === rate.usdPerUnit && old.source === rate.source) continue;
    const [currency = '', yearText = ''] = key.split(':');
    const year = Number(yearText);
    const currencies = [
      currency,
      ...Object.entries(SUB_UNITS)
        .filter(([, s]) => s.parent === currency)
        .map(([c]) => c),
    ];
    const points = await trx
      .selectFrom('revenue_points')
      .select(['point_id', 'original_value', 'original_ccy', 'value_usd', 'fx_rate', 'fx_source'])
      .where('original_ccy', 'in', currencies)
      .where('reporting_period', '=', year)
      .execute();
    for (const p of points) {
      if (p.original_value === null) continue;
      const value = toUsd(p.original_value, p.original_ccy, rate.usdPerUnit);
      if (value === p.value_usd && p.fx_rate === rate.usdPerUnit && p.fx_source === rate.source) continue;
      await trx
        .updateTable('revenue_points')
        .set({ value_usd: value, fx_rate: rate.usdPerUnit, fx_source: rate.source })
        .where('point_id', '=', p.point_id)
        .execute();
      updated++;
    }
  }
  return updated;
}
