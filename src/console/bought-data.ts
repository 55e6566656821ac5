import type { AppContext } from '../app-context.js';
import { type Figure, figuresOf } from './figures.js';
import { type Purchase, purchases } from './usage-query.js';

/** One bought company-period of one dataset, with its figures. */
export interface BoughtPeriod {
  readonly dataset: string;
  readonly datasetLabel: string;
  readonly purchase: Purchase;
  readonly figures: readonly Figure[];
}

/**
 * Everything the account bought, by dataset (the registry's order), then company and period
 * (most recent first), with the figures the API answers for it now. Read from each dataset's own
 * loader, once per company: a download holds exactly what the API would answer.
 */
export async function boughtData(ctx: AppContext, accountId: string): Promise<BoughtPeriod[]> {
  const db = ctx.db.kysely;
  const all = await purchases(db, accountId);
  const out: BoughtPeriod[] = [];
  for (const dataset of ctx.datasets) {
    const mine = all
      .filter((p) => p.dataset === dataset.name)
      .sort((a, b) => a.companyName.localeCompare(b.companyName) || b.period - a.period);
    const companies = [...new Set(mine.map((p) => p.companyId))];
    const loaded = new Map(
      await Promise.all(companies.map(async (id) => [id, await dataset.load(db, id, ctx.config.publicUrl)] as const)),
    );
    for (const p of mine) {
      const records = loaded.get(p.companyId)?.records.get(p.period) ?? [];
      out.push({
        dataset: dataset.name,
        datasetLabel: dataset.label,
        purchase: p,
        figures: figuresOf(dataset.label, p.period, records),
      });
    }
  }
  return out;
}
