import { gzipSync } from 'node:zlib';
import type { Kysely } from 'kysely';
import type { CompanyIdentifierKind, Database } from '../db/schema.js';
import { compareByExchange } from './exchange-order.js';
import { prominence } from './search/prominence.js';
import { type SearchEntry, SearchIndex } from './search/search-index.js';
import { tickerKey } from './ticker-key.js';

/** The company record of the API (design §1.6): exactly these five fields. */
export interface CompanyRecord {
  company_id: string;
  company_name: string;
  ticker: string;
  mic_code: string;
  country: string | null;
}

export interface Listing {
  readonly companyId: string;
  readonly ticker: string;
  readonly micCode: string;
  readonly isin: string | null;
  readonly isPrimary: boolean;
  readonly addedSeq: number;
}

export interface Company {
  readonly companyId: string;
  readonly name: string;
  readonly country: string | null;
  readonly lei: string | null;
  /** SEC Central Index Key, ten digits with leading zeros; null for a company that files nothing with the SEC. */
  readonly cik: string | null;
  /** Primary listing first, then in the order they were added. */
  readonly listings: readonly Listing[];
  /** Whether a processed document holds data of it; search ranks such a company before a namesake without. */
  readonly hasData?: boolean;
  /** Identifiers that came with companies merged into it (design §19.4): former ids, other CIKs and LEIs. */
  readonly identifiers?: readonly CompanyIdentifier[];
}

export interface CompanyIdentifier {
  readonly kind: CompanyIdentifierKind;
  readonly value: string;
}

/**
 * An immutable picture of every company and listing, built from one read of the database. The
 * service answers identifier lookups, search and the company list from it; it is replaced as a
 * whole when an import moves the data version.
 */
export class Catalog {
  readonly #byId = new Map<string, Company>();
  readonly #byTicker = new Map<string, Listing[]>();
  readonly #byIsin = new Map<string, Listing>();
  readonly #byLei = new Map<string, Company>();
  /** By CIK as the SEC writes it in files (ten digits) and on its pages (no leading zeros). */
  readonly #byCik = new Map<string, Company>();
  /** A company_id merged into another: the id it lives on under. */
  readonly #formerIds = new Map<string, string>();
  readonly #records = new Map<string, CompanyRecord>();
  readonly #searchAnswers = new Map<string, string>();
  readonly search: SearchIndex;
  /** The whole company list as JSON text and gzip, built once per catalog. */
  readonly listJson: string;
  readonly listGzip: Buffer;

  /** `search`, when given, was built for these companies by {@link Catalog.create}. */
  constructor(companies: readonly Company[], search?: SearchIndex) {
    const all: CompanyRecord[] = [];
    for (const c of companies) {
      this.#byId.set(c.companyId, c);
      if (c.lei !== null) this.#byLei.set(c.lei, c);
      const otherCiks = (c.identifiers ?? []).filter((i) => i.kind === 'cik').map((i) => i.value);
      for (const cik of c.cik === null ? otherCiks : [c.cik, ...otherCiks]) {
        this.#byCik.set(cik, c);
        this.#byCik.set(cik.replace(/^0+(?=.)/, ''), c);
      }
      for (const { kind, value } of c.identifiers ?? []) {
        if (kind === 'company_id') this.#formerIds.set(value, c.companyId);
        else if (kind === 'lei') this.#byLei.set(value, c);
      }
      for (const l of c.listings) {
        const key = tickerKey(l.ticker);
        const list = this.#byTicker.get(key) ?? [];
        list.push(l);
        this.#byTicker.set(key, list);
        if (l.isin !== null) this.#byIsin.set(l.isin, l);
      }
      const primary = c.listings[0];
      if (primary === undefined) continue;
      const record = {
        company_id: c.companyId,
        company_name: c.name,
        ticker: primary.ticker,
        mic_code: primary.micCode,
        country: c.country,
      };
      this.#records.set(c.companyId, record);
      all.push(record);
    }
    for (const list of this.#byTicker.values()) list.sort(compareByExchange);
    this.search = search ?? new SearchIndex(searchEntries(companies), { identify: (upper) => this.#identify(upper) });
    this.listJson = JSON.stringify(all);
    this.listGzip = gzipSync(this.listJson);
  }

  /**
   * A catalog whose search index is built in slices, the event loop running between them: a
   * server reloading after an import goes on answering from the old catalog meanwhile.
   */
  static async create(companies: readonly Company[]): Promise<Catalog> {
    let catalog: Catalog | undefined;
    const search = await SearchIndex.build(searchEntries(companies), {
      identify: (upper) => (catalog === undefined ? undefined : catalog.#identify(upper)),
    });
    catalog = new Catalog(companies, search);
    return catalog;
  }

  /** ISINs, LEIs and CIKs are already mapped here; the index asks rather than keeping a second map. */
  #identify(upper: string): string | undefined {
    return (this.byIsin(upper) ?? this.byLei(upper) ?? this.#byCik.get(upper))?.companyId;
  }

  /**
   * The JSON answer of a search, kept per query text for the life of this catalog: people type the
   * same few letters, and the answer changes only when the catalog does. Bounded; dropped whole
   * when full.
   */
  searchJson(query: string): string {
    let json = this.#searchAnswers.get(query);
    if (json === undefined) {
      json = JSON.stringify(this.search.search(query).flatMap((id) => this.record(id) ?? []));
      if (this.#searchAnswers.size >= SEARCH_ANSWERS_KEPT) this.#searchAnswers.clear();
      this.#searchAnswers.set(query, json);
    }
    return json;
  }

  get size(): number {
    return this.#byId.size;
  }

  /** The company of this id, or of the company merged into it under this id (design §19.4). */
  byId(companyId: string): Company | undefined {
    return this.#byId.get(companyId) ?? this.#byId.get(this.#formerIds.get(companyId) ?? '');
  }

  byIsin(isin: string): Company | undefined {
    const l = this.#byIsin.get(isin);
    return l === undefined ? undefined : this.#byId.get(l.companyId);
  }

  byLei(lei: string): Company | undefined {
    return this.#byLei.get(lei);
  }

  /** The company with this SEC CIK, written with or without its leading zeros. */
  byCik(cik: string): Company | undefined {
    return this.#byCik.get(cik) ?? this.#byCik.get(cik.replace(/^0+(?=.)/, ''));
  }

  /**
   * The company trading under `ticker` (any case, any class-share separator: design §19.5). With a MIC, the listing on that market; without
   * one, "the first matching ticker" in the order of {@link compareByExchange} (design §1.3).
   */
  byTicker(ticker: string, micCode?: string): Company | undefined {
    const listings = this.#byTicker.get(tickerKey(ticker));
    if (listings === undefined) return undefined;
    const hit = micCode === undefined ? listings[0] : listings.find((l) => l.micCode === micCode);
    return hit === undefined ? undefined : this.#byId.get(hit.companyId);
  }

  /** Every listing of `ticker` (any case, any class-share separator), on any market. */
  listingsOf(ticker: string): readonly Listing[] {
    return this.#byTicker.get(tickerKey(ticker)) ?? [];
  }

  record(companyId: string): CompanyRecord | undefined {
    return this.#records.get(companyId);
  }
}

const SEARCH_ANSWERS_KEPT = 10_000;

/** A company without a listing (one added from its filings, design §19.1) has no record to answer a search with. */
function searchEntries(companies: readonly Company[]): SearchEntry[] {
  return companies
    .filter((c) => c.listings.length > 0)
    .map((c) => ({
      companyId: c.companyId,
      name: c.name,
      tickers: c.listings.map((l) => l.ticker),
      prominence: prominence({ micCodes: c.listings.map((l) => l.micCode), hasData: c.hasData === true }),
    }));
}

/** Reads every company and listing into a new {@link Catalog}. */
export async function loadCatalog(db: Kysely<Database>): Promise<Catalog> {
  const [companies, listings, documented, identifiers] = await Promise.all([
    db.selectFrom('companies').select(['company_id', 'name', 'country', 'lei', 'cik']).orderBy('company_id').execute(),
    db
      .selectFrom('listings')
      .select(['company_id', 'ticker', 'mic_code', 'isin', 'is_primary', 'added_seq'])
      .orderBy('company_id')
      .orderBy('is_primary', 'desc')
      .orderBy('added_seq')
      .execute(),
    db.selectFrom('documents').select('company_id').distinct().where('status', '=', 'processed').execute(),
    db.selectFrom('company_identifiers').select(['company_id', 'kind', 'value']).orderBy('kind').orderBy('value').execute(),
  ]);
  const identifiersOf = new Map<string, CompanyIdentifier[]>();
  for (const i of identifiers) identifiersOf.set(i.company_id, [...(identifiersOf.get(i.company_id) ?? []), i]);
  const withData = new Set(documented.map((d) => d.company_id));
  const byCompany = new Map<string, Listing[]>();
  for (const l of listings) {
    const list = byCompany.get(l.company_id) ?? [];
    list.push({
      companyId: l.company_id,
      ticker: l.ticker,
      micCode: l.mic_code,
      isin: l.isin,
      isPrimary: Number(l.is_primary) === 1,
      addedSeq: Number(l.added_seq),
    });
    byCompany.set(l.company_id, list);
  }
  return Catalog.create(
    companies.map((c) => ({
      companyId: c.company_id,
      name: c.name,
      country: c.country,
      lei: c.lei,
      cik: c.cik,
      listings: byCompany.get(c.company_id) ?? [],
      hasData: withData.has(c.company_id),
      identifiers: identifiersOf.get(c.company_id) ?? [],
    })),
  );
}
