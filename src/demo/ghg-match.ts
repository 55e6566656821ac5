import { matchKey } from '../catalog/search/match-key.js';

import type { DemoCompany } from './companies.js';

/** A source's company as the source names it. */
export interface GhgCompanyRef {
  name: string;
  country: string | null;
  isin: string | null;
  lei: string | null;
}

export type MatchResult = { ok: true; company: DemoCompany; by: 'ISIN' | 'LEI' | 'name' } | { ok: false; reason: string };

/**
 * Finds the one catalog company a source's company is: by ISIN, then LEI, then by normalized name
 * (and country, where both sides know it) when exactly one catalog company has it. Never guesses:
 * no match and several matches are reasons, reported.
 */
export class CatalogMatcher {
  readonly #byIsin = new Map<string, DemoCompany>();
  readonly #byName = new Map<string, DemoCompany[]>();

  constructor(companies: readonly DemoCompany[]) {
    for (const c of companies) {
      for (const l of c.listings) if (l.isin !== null) this.#byIsin.set(l.isin, c);
      const key = matchKey(c.name);
      this.#byName.set(key, [...(this.#byName.get(key) ?? []), c]);
    }
  }

  match(ref: GhgCompanyRef): MatchResult {
    if (ref.isin !== null) {
      const byIsin = this.#byIsin.get(ref.isin);
      if (byIsin !== undefined) return { ok: true, company: byIsin, by: 'ISIN' };
    }
    // The demo catalog carries no LEIs (its sources have none), so an LEI cannot match here.
    let candidates = this.#byName.get(matchKey(ref.name)) ?? [];
    if (ref.country !== null && candidates.length > 1) {
      candidates = candidates.filter((c) => c.country === null || c.country === ref.country);
    }
    if (
      ref.country !== null &&
      candidates.length === 1 &&
      candidates[0]?.country !== null &&
      candidates[0]?.country !== ref.country
    ) {
      return {
        ok: false,
        reason: `the only catalog company named "${ref.name}" is in ${candidates[0]?.country}, not ${ref.country}`,
      };
    }
    const [only, ...more] = candidates;
    if (only !== undefined && more.length === 0) return { ok: true, company: only, by: 'name' };
    if (only === undefined) {
      const ids = [ref.isin === null ? '' : `ISIN ${ref.isin}`, ref.lei === null ? '' : `LEI ${ref.lei}`].filter((s) => s !== '');
      return { ok: false, reason: `no catalog company with ${[...ids, 'its name'].join(', ')}` };
    }
    return { ok: false, reason: `ambiguous: ${candidates.length} catalog companies are named "${ref.name}"` };
  }
}
