import type { Transaction } from 'kysely';
import type { Database, FigureTableName } from '../../db/schema.js';
import { SUB_UNITS } from '../../money/currencies.js';
import { toUsd } from '../../money/normalize.js';

type Rates = ReadonlyMap<string, { usdPerUnit: string; source: string }>;

const PAGE = 5_000;

/**
 * Recomputes the USD value of every stored money figure (of each of the `tables`, rounded to its
 * step) whose currency-year rate this import
 * changed, so no figure keeps a value computed with a rate the database no longer holds.
 *
 * Only rates the database held before can have stored figures depending on them (a figure is
 * never stored without its rate), and the bundle's own figures were converted with the new rates
 * already; so a fresh import of a large bundle looks at nothing. The figures of a changed rate are
 * read in pages by key, only those still carrying the old rate.
 */
export async function renormalize(
  trx: Transaction<Database>,
  before: Rates,
  after: Rates,
  tables: ReadonlyArray<{ table: FigureTableName; step: number }>,
): Promise<number> {
  let updated = 0;
  for (const { table, step } of tables) updated += await renormalizeTable(trx, before, after, table, step);
  return updated;
}

/** One money figure table (every one has the columns `FigurePointTable` types). */
async function renormalizeTable(
  trx: Transaction<Database>,
  before: Rates,
  after: Rates,
  table: FigureTableName,
  step: number,
): Promise<number> {
  let updated = 0;
  for (const [key, rate] of after) {
    const old = before.get(key);
    if (old === undefined || (old.usdPerUnit === rate.usdPerUnit && old.source === rate.source)) continue;
    const [currency = '', yearText = ''] = key.split(':');
    const currencies = [
      currency,
      ...Object.entries(SUB_UNITS)
        .filter(([, s]) => s.parent === currency)
        .map(([c]) => c),
    ];
    let cursor: string | undefined;
    for (;;) {
      let query = trx
        .selectFrom(table)
        .select(['point_id', 'original_value', 'original_ccy'])
        .where('original_ccy', 'in', currencies)
        .where('reporting_period', '=', Number(yearText))
        .where('original_value', 'is not', null)
        .where((eb) => eb.or([eb('fx_rate', '<>', rate.usdPerUnit), eb('fx_source', '<>', rate.source)]));
      if (cursor !== undefined) query = query.where('point_id', '>', cursor);
      const points = await query.orderBy('point_id').limit(PAGE).execute();
      for (const p of points) {
        if (p.original_value === null) continue;
        const value = toUsd(p.original_value, p.original_ccy, rate.usdPerUnit, step);
        await trx
          .updateTable(table)
          .set({ value_usd: value, fx_rate: rate.usdPerUnit, fx_source: rate.source })
          .where('point_id', '=', p.point_id)
          .execute();
        updated++;
      }
      if (points.length < PAGE) break;
      cursor = points[points.length - 1]?.point_id;
    }
  }
  return updated;
}
