import type { Kysely } from 'kysely';
import type { Dataset } from '../datasets/dataset.js';
import type { Database } from '../db/schema.js';
import { type Figure, figuresOf } from './figures.js';

/** The subscriptions the account holds (what the API's key check reads, from the same table). */
export async function subscriptionsOf(db: Kysely<Database>, accountId: string): Promise<ReadonlySet<string>> {
  const rows = await db.selectFrom('account_subscriptions').select('subscription').where('account_id', '=', accountId).execute();
  return new Set(rows.map((r) => r.subscription));
}

/** The periods of one company the account bought, by dataset. */
export async function boughtPeriods(
  db: Kysely<Database>,
  accountId: string,
  companyId: string,
): Promise<ReadonlyMap<string, ReadonlySet<number>>> {
  const rows = await db
    .selectFrom('purchases')
    .select(['dataset', 'reporting_period'])
    .where('account_id', '=', accountId)
    .where('company_id', '=', companyId)
    .execute();
  const bought = new Map<string, Set<number>>();
  for (const r of rows) {
    const set = bought.get(r.dataset) ?? new Set<number>();
    set.add(r.reporting_period);
    bought.set(r.dataset, set);
  }
  return bought;
}

/** One dataset of one company as the account sees it: what exists, what it bought, and those figures. */
export interface Coverage {
  readonly dataset: Dataset;
  readonly subscribed: boolean;
  /** The available periods (the free periods endpoint's answer), most recent first. */
  readonly periods: readonly number[];
  /** Available periods that have no figure (a call would answer 204): nothing to buy. */
  readonly empty: ReadonlySet<number>;
  readonly bought: ReadonlySet<number>;
  /** The figures of the bought periods only. */
  readonly figures: readonly Figure[];
}

/** Every dataset's coverage of a company, in the registry's order: a new dataset appears here by itself. */
export async function coverageOf(
  datasets: readonly Dataset[],
  db: Kysely<Database>,
  accountId: string,
  companyId: string,
  publicUrl: string,
): Promise<Coverage[]> {
  const [subscriptions, bought] = await Promise.all([subscriptionsOf(db, accountId), boughtPeriods(db, accountId, companyId)]);
  return Promise.all(
    datasets.map(async (dataset) => {
      const data = await dataset.load(db, companyId, publicUrl);
      const mine = bought.get(dataset.name) ?? new Set<number>();
      const empty = new Set(data.periods.filter((p) => (data.records.get(p) ?? []).length === 0));
      const figures = data.periods
        .filter((p) => mine.has(p))
        .sort((a, b) => a - b)
        .flatMap((p) => figuresOf(dataset.label, p, data.records.get(p) ?? []));
      return {
        dataset,
        subscribed: subscriptions.has(dataset.subscription),
        periods: data.periods,
        empty,
        bought: mine,
        figures,
      };
    }),
  );
}
