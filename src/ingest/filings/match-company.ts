import type { Kysely } from 'kysely';
import { nameKey, words } from '../../catalog/search/normalize-name.js';
import type { Database } from '../../db/schema.js';
import { stableId } from '../core/stable-id.js';
import type { FilerIdentity } from './source.js';

type NameIndex = Map<string, Array<{ companyId: string; country: string | null; lei: string | null }>>;

/** The company a filer is; `recordLei` when it was found by name and its LEI is now to be recorded on it. */
export type Match = { companyId: string; recordLei?: string };

/** A company made from a filer's own identity (design §19.1): no listing, the source's name and country. */
export interface NewCompany {
  companyId: string;
  name: string;
  country: string | null;
  lei: string | null;
  cik: string | null;
}

/**
 * The company a filer the catalog does not hold becomes (design §19.1), identified by its CIK, else
 * its LEI: the id is a name-based UUID of that key (an SEC filer's the one `sec-tickers` gives it), so
 * the same filer ingested twice, or on two machines, is one company. Undefined for a filer with
 * neither (an ESEF report whose entity is not identified by an LEI), and for one known by its LEI
 * alone, without a name (neither the index nor the report names it): it might be a catalog company
 * its name would have found, and a company named by a code helps no one.
 */
export function newCompanyOf(filer: FilerIdentity): NewCompany | undefined {
  const key =
    filer.cik !== undefined ? `sec-company:${filer.cik}` : filer.lei !== undefined ? `lei-company:${filer.lei}` : undefined;
  if (key === undefined || (filer.cik === undefined && filer.name.trim() === '')) return undefined;
  const name = filer.name.trim() || `CIK ${filer.cik}`;
  return {
    companyId: stableId(key),
    name: name.slice(0, 300),
    country: filer.country ?? null,
    lei: filer.lei ?? null,
    cik: filer.cik ?? null,
  };
}

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
 * name and country when exactly one catalog company has them (`ambiguous` when several do); never
 * guesses. Adding the company of a filer it does not find is the pipeline's ({@link newCompanyOf}).
 * The CIK and LEI indexes are read once; names only when a filer without either comes along, so
 * an SEC ingest never reads the catalog's names.
 */
export class CompanyMatcher {
  #byCik: Map<string, string> | undefined;
  #byLei: Map<string, string> | undefined;
  #byName: NameIndex | undefined;

  constructor(private readonly db: Kysely<Database>) {}

  async match(filer: FilerIdentity): Promise<Match | 'ambiguous' | undefined> {
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
    if (only === undefined) return undefined;
    if (more.length > 0) return 'ambiguous';
    // A company already known by another LEI is not this filer.
    if (only.lei !== null && filer.lei !== undefined && only.lei !== filer.lei) return undefined;
    return only.lei === null && filer.lei !== undefined
      ? { companyId: only.companyId, recordLei: filer.lei }
      : { companyId: only.companyId };
  }

  /** A company added during this run: the filer's later reports find it by CIK or LEI. */
  remember(company: NewCompany): void {
    if (company.cik !== null) this.#byCik?.set(company.cik, company.companyId);
    if (company.lei !== null) this.#byLei?.set(company.lei, company.companyId);
  }

  /** A company's own CIK or LEI, and those that came with companies merged into it (design §19.4). */
  async #index(column: 'cik' | 'lei'): Promise<Map<string, string>> {
    const [own, merged] = await Promise.all([
      this.db.selectFrom('companies').select(['company_id', column]).where(column, 'is not', null).execute(),
      this.db.selectFrom('company_identifiers').select(['company_id', 'value']).where('kind', '=', column).execute(),
    ]);
    return new Map([
      ...own.map((r): [string, string] => [r[column] as string, r.company_id]),
      ...merged.map((r): [string, string] => [r.value, r.company_id]),
    ]);
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
