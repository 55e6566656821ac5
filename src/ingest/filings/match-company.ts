import type { Kysely } from 'kysely';
import { nameKey, words } from '../../catalog/search/normalize-name.js';
import type { Database } from '../../db/schema.js';
import type { FilerIdentity } from './source.js';

type NameIndex = Map<string, Array<{ companyId: string; country: string | null; lei: string | null }>>;

/** The company a filer is; `recordLei` when it was found by name and its LEI is now to be recorded on it. */
export type Match = { companyId: string; recordLei?: string };

/**
 * A name without case, accents, punctuation, `&`/`and` and its trailing legal form (design §13.6):
 * "Industria de Diseño Textil, S.A." and "INDUSTRIA DE DISENO TEXTIL SA" are one key.
 */
export function nameMatchKey(name: string): string {
  return nameKey(
    words(name)
      .filter((w) => w !== 'and')
      .join(' '),
  ).join(' ');
}

/**
 * Finds the catalog company a filer is (design §10.1, §14.1): by CIK, else LEI, else normalized
 * name and country when exactly one catalog company has them; never guesses, never adds one.
 * The CIK and LEI indexes are read once; names only when a filer without either comes along, so
 * an SEC ingest never reads the catalog's names.
 */
export class CompanyMatcher {
  #byCik: Map<string, string> | undefined;
  #byLei: Map<string, string> | undefined;
  #byName: NameIndex | undefined;

  constructor(private readonly db: Kysely<Database>) {}

  async match(filer: FilerIdentity): Promise<Match | undefined> {
    if (filer.cik !== undefined) {
      this.#byCik ??= await this.#index('cik');
      const id = this.#byCik.get(filer.cik);
      if (id !== undefined) return { companyId: id };
      // A CIK is SEC's whole identity of a filer: one the catalog lacks is not looked up by name.
      if (filer.lei === undefined) return undefined;
    }
    if (filer.lei !== undefined) {
      this.#byLei ??= await this.#index('lei');
      const id = this.#byLei.get(filer.lei);
      if (id !== undefined) return { companyId: id };
    }
    if (filer.country === undefined) return undefined;
    this.#byName ??= await this.#names();
    const country = filer.country.trim().toLowerCase();
    const found = (this.#byName.get(nameMatchKey(filer.name)) ?? []).filter((c) => c.country?.trim().toLowerCase() === country);
    const [only, ...more] = found;
    if (only === undefined || more.length > 0) return undefined;
    // A company already known by another LEI is not this filer.
    if (only.lei !== null && filer.lei !== undefined && only.lei !== filer.lei) return undefined;
    return only.lei === null && filer.lei !== undefined
      ? { companyId: only.companyId, recordLei: filer.lei }
      : { companyId: only.companyId };
  }

  async #index(column: 'cik' | 'lei'): Promise<Map<string, string>> {
    const rows = await this.db.selectFrom('companies').select(['company_id', column]).where(column, 'is not', null).execute();
    return new Map(rows.map((r) => [r[column] as string, r.company_id]));
  }

  async #names(): Promise<NameIndex> {
    const rows = await this.db.selectFrom('companies').select(['company_id', 'name', 'country', 'lei']).execute();
    const byName: NameIndex = new Map();
    for (const r of rows) {
      const key = nameMatchKey(r.name);
      byName.set(key, [...(byName.get(key) ?? []), { companyId: r.company_id, country: r.country, lei: r.lei }]);
    }
    return byName;
  }
}
