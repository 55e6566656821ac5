import { isValidIsin, TICKER_MAX_LENGTH } from '../catalog/identifiers.js';
import { SEC_EXCHANGE_MIC } from '../catalog/sec-exchanges.js';
import type { SourceRow } from './csv.js';
import { apiMic, countryOfHeadquarters, tickerOfSymbol } from './markets.js';
import { nameUuid } from './name-uuid.js';
import type { Report } from './report.js';

export interface DemoListing {
  ticker: string;
  mic: string;
  isin: string | null;
}

export interface DemoCompany {
  /** Stable source key the id is derived from: `sec-cik:…` or `fd:…`. */
  key: string;
  id: string;
  name: string;
  country: string | null;
  /** Primary listing first. */
  listings: DemoListing[];
}

/** Every company the sources identify, merged across sources, with unique tickers and ISINs. */
export class Companies {
  readonly byKey = new Map<string, DemoCompany>();
  readonly #listingOwner = new Map<string, DemoCompany>();
  readonly #isins = new Map<string, DemoCompany>();

  constructor(private readonly report: Report) {}

  #company(key: string, name: string, country: string | null): DemoCompany {
    let c = this.byKey.get(key);
    if (c === undefined) {
      c = { key, id: nameUuid(key), name, country, listings: [] };
      this.byKey.set(key, c);
    }
    return c;
  }

  ownerOf(ticker: string, mic: string): DemoCompany | undefined {
    return this.#listingOwner.get(`${mic}|${ticker}`);
  }

  /** Adds a listing unless it breaks a rule; says why on the report and returns false then. */
  #list(company: DemoCompany, ticker: string, mic: string, isin: string | null, row: SourceRow): boolean {
    if (ticker.length < 1 || ticker.length > TICKER_MAX_LENGTH || /\s/.test(ticker)) {
      this.report.drop(row, `ticker "${ticker}" is not 1 to ${TICKER_MAX_LENGTH} characters without spaces`);
      return false;
    }
    const owner = this.ownerOf(ticker, mic);
    if (owner !== undefined) {
      this.report.drop(row, `ticker ${ticker} on ${mic} is already listed for ${owner.name}`);
      return false;
    }
    if (isin !== null && this.#isins.has(isin)) {
      this.report.drop(row, `ISIN ${isin} is already used by another listing`);
      return false;
    }
    company.listings.push({ ticker, mic, isin });
    this.#listingOwner.set(`${mic}|${ticker}`, company);
    if (isin !== null) this.#isins.set(isin, company);
    return true;
  }

  /** SEC company tickers: one company per CIK, its first ticker in the file is the primary listing. */
  addSec(rows: readonly SourceRow[]): void {
    for (const row of rows) {
      const mic = SEC_EXCHANGE_MIC[row.get('exchange')];
      if (mic === undefined) {
        this.report.drop(row, `no exchange given for ${row.get('ticker')}, so no MIC`);
        continue;
      }
      const key = `sec-cik:${row.get('cik')}`;
      const isNew = !this.byKey.has(key);
      const company = this.#company(key, row.get('name'), null);
      if (!this.#list(company, row.get('ticker'), mic, null, row) && isNew) this.byKey.delete(key);
    }
  }

  /** S&P 500: better names and the headquarters country for companies the SEC list has. */
  addSp500(rows: readonly SourceRow[]): void {
    for (const row of rows) {
      const company = this.byKey.get(`sec-cik:${row.get('CIK')}`);
      if (company === undefined) {
        this.report.drop(
          row,
          `CIK ${row.get('CIK')} (${row.get('Symbol')}) is not in the SEC ticker list, which gives the exchange`,
        );
        continue;
      }
      company.name = row.get('Security');
      company.country = countryOfHeadquarters(row.get('Headquarters Location'));
    }
  }

  /** FinanceDatabase home listings: new companies, or country and ISIN for a US company already listed. */
  addFinanceDatabase(rows: readonly SourceRow[]): void {
    for (const row of rows)
      this.#addFd(row, row.get('symbol'), row.get('name'), row.get('country'), row.get('mic'), row.get('isin'));
  }

  #addFd(
    row: SourceRow,
    symbol: string,
    name: string,
    country: string,
    sourceMic: string,
    isinText: string,
  ): DemoCompany | undefined {
    const existing = this.byKey.get(`fd:${symbol}`);
    if (existing !== undefined) return existing;
    const mic = apiMic(sourceMic);
    if (mic === undefined) {
      this.report.drop(row, `MIC "${sourceMic}" of ${symbol} has no counterpart in the API's MIC list`);
      return undefined;
    }
    const isin = isinText === '' ? null : isinText;
    if (isin !== null && !isValidIsin(isin)) {
      this.report.drop(row, `ISIN "${isin}" of ${symbol} fails its check digit`);
      return undefined;
    }
    const ticker = tickerOfSymbol(symbol);
    const isinOwner = isin === null ? undefined : this.#isins.get(isin);
    if (isinOwner !== undefined) {
      // Same ISIN, same company (design §1.3): a further listing of it. The source gives some
      // lines (preference shares, notes) their issuer's ISIN, so the ISIN stays on the first.
      if (!this.#list(isinOwner, ticker, mic, null, row)) return undefined;
      this.report.note(row, `merged into ${isinOwner.name} (same ISIN ${isin}), listed as ${ticker} on ${mic}`);
      return isinOwner;
    }
    const owner = this.ownerOf(ticker, mic);
    if (owner?.key.startsWith('sec-cik:')) {
      if (owner.country === null && country !== '') owner.country = country;
      const listing = owner.listings.find((l) => l.ticker === ticker && l.mic === mic);
      if (listing !== undefined && listing.isin === null && isin !== null && !this.#isins.has(isin)) {
        listing.isin = isin;
        this.#isins.set(isin, owner);
      }
      this.report.note(row, `merged into SEC company ${owner.name} (${ticker} on ${mic})`);
      return owner;
    }
    const key = `fd:${symbol}`;
    const company = this.#company(key, name, country === '' ? null : country);
    if (!this.#list(company, ticker, mic, isin, row)) {
      this.byKey.delete(key);
      return undefined;
    }
    return company;
  }

  /** The company of a company-report revenue row, listed from the row's own FinanceDatabase match. */
  forReport(row: SourceRow): DemoCompany | undefined {
    const symbol = row.get('yahoo_symbol_fd');
    if (symbol === '' || row.get('mic_fd') === '') {
      this.report.drop(row, `${row.get('company_name')} has no listing in the sources (no ticker or MIC)`);
      return undefined;
    }
    return this.#addFd(row, symbol, row.get('company_name'), row.get('country_fd'), row.get('mic_fd'), '');
  }

  /** All companies with at least one listing, sorted by id (a merged company's keys lead to the one it became). */
  all(): DemoCompany[] {
    return [...new Set(this.byKey.values())].filter((c) => c.listings.length > 0).sort((a, b) => (a.id < b.id ? -1 : 1));
  }
}
