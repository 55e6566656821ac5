import { isCurrency } from '../money/currencies.js';
import type { Companies, DemoCompany } from './companies.js';
import type { SourceRow } from './csv.js';
import { nameUuid } from './name-uuid.js';
import type { Report } from './report.js';

export interface DemoDocument {
  id: string;
  companyId: string;
  title: string;
  sourceUrl: string;
  publishedOn: string;
  reportingPeriod: number;
  /** The filings source it came from and that source's key (an ESEF report's); else SEC by accession, or the bundle. */
  source?: { name: string; key: string };
}

export interface DemoFigure {
  companyId: string;
  documentId: string;
  period: number;
  value: string;
  currency: string;
}

export const FIRST_PERIOD = 2020;
export const LAST_PERIOD = 2026;
/** The sources give no filing dates: a document is taken as published this long after its period end. */
export const PUBLICATION_LAG_DAYS = 90;
const DERIVED = ' [publication date derived]';

/** Period end as stated (`2023-03` is the month's last day), else 31 December of the fiscal year. */
function periodEnd(stated: string, fiscalYear: number): Date {
  const full = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(stated);
  if (full !== null) return new Date(Date.UTC(Number(full[1]), Number(full[2]) - 1, Number(full[3])));
  const month = /^([0-9]{4})-([0-9]{2})$/.exec(stated);
  if (month !== null) return new Date(Date.UTC(Number(month[1]), Number(month[2]), 0));
  return new Date(Date.UTC(fiscalYear, 11, 31));
}

function published(end: Date): string {
  return new Date(end.getTime() + PUBLICATION_LAG_DAYS * 86_400_000).toISOString().slice(0, 10);
}

interface Group {
  company: DemoCompany;
  rows: SourceRow[];
}

/** Documents and their revenue figures, from both revenue files. */
export class Revenues {
  readonly documents = new Map<string, DemoDocument>();
  readonly figures = new Map<string, DemoFigure>();
  /** The SEC XBRL page documents' accession numbers, by document id. */
  readonly #accessions = new Map<string, string>();

  constructor(
    private readonly report: Report,
    private readonly hasRate: (currency: string, year: number) => boolean,
  ) {}

  #figure(row: SourceRow, company: DemoCompany, documentId: string, year: number, currency: string): void {
    const value = row.get('revenue');
    const key = `${company.id}|${documentId}|${year}`;
    const reason = this.#refusal(value, year, currency, key);
    if (reason !== undefined) this.report.drop(row, reason);
    else this.figures.set(key, { companyId: company.id, documentId, period: year, value, currency });
  }

  /** Why a source figure cannot be kept, if it cannot. */
  #refusal(value: string, year: number, currency: string, key: string): string | undefined {
    if (value === '') return 'no revenue value in the source';
    if (!/^[0-9]+$/.test(value) || !Number.isSafeInteger(Number(value))) return `revenue "${value}" is not a whole number`;
    if (year < FIRST_PERIOD || year > LAST_PERIOD) return `fiscal year ${year} is outside ${FIRST_PERIOD}..${LAST_PERIOD}`;
    if (!isCurrency(currency)) return `currency "${currency}" is not one the API knows`;
    if (currency !== 'USD' && !this.hasRate(currency, year)) return `no yearly FX rate for ${currency} ${year}`;
    if (this.figures.has(key)) return `the same document already gives ${year}`;
    return undefined;
  }

  /** Adds a document for a group of rows if at least one of its figures was kept. */
  #document(id: string, group: Group, title: string, sourceUrl: string, periodEndColumn: string): void {
    const before = this.figures.size;
    const year = (r: SourceRow) => Number(r.get('fiscal_year'));
    for (const row of group.rows) this.#figure(row, group.company, id, year(row), row.get('currency'));
    if (this.figures.size === before) return;
    const latest = group.rows.reduce((a, b) => (year(b) > year(a) ? b : a));
    this.documents.set(id, {
      id,
      companyId: group.company.id,
      title: title + DERIVED,
      sourceUrl,
      publishedOn: published(periodEnd(latest.get(periodEndColumn), year(latest))),
      reportingPeriod: year(latest),
    });
  }

  /** SEC XBRL pages: one document per filing (accession number). */
  addSec(rows: readonly SourceRow[], companies: Companies): void {
    const filings = new Map<string, Group>();
    for (const row of rows) {
      const company = companies.byKey.get(`sec-cik:${row.get('cik')}`);
      if (company === undefined || company.listings.length === 0) {
        this.report.drop(row, `CIK ${row.get('cik')} has no listing in the SEC ticker list`);
        continue;
      }
      const accession = row.get('accession_number');
      const group = filings.get(accession) ?? { company, rows: [] };
      group.rows.push(row);
      filings.set(accession, group);
    }
    for (const [accession, group] of filings) {
      const first = group.rows[0];
      if (first === undefined) continue;
      const title = `SEC filing ${accession}: ${first.get('source_page_title')}`;
      const id = nameUuid(`sec-accession:${accession}`);
      this.#document(id, group, title, first.get('source_url'), 'period_end');
      this.#accessions.set(id, accession);
    }
  }

  /**
   * Leaves out the XBRL page documents of filings whose XBRL the demo reads itself (`filed`
   * accession numbers): one filing is one document, and its figure is chosen by the ingest rules.
   */
  withoutFilings(filed: ReadonlySet<string>): string[] {
    const lines: string[] = [];
    for (const [id, accession] of this.#accessions) {
      if (!filed.has(accession) || !this.documents.has(id)) continue;
      this.documents.delete(id);
      let n = 0;
      for (const [key, f] of this.figures) {
        if (f.documentId !== id) continue;
        this.figures.delete(key);
        n++;
      }
      lines.push(
        `revenues_sec_xbrl_rpages.csv: accession ${accession}: ${n} figures left out: the demo reads this filing's XBRL (filings/)`,
      );
    }
    return lines.sort();
  }

  /** Company reports: one document per company and source page, flags kept in the title. */
  addReports(rows: readonly SourceRow[], companies: Companies): void {
    const pages = new Map<string, Group>();
    for (const row of rows) {
      const company = companies.forReport(row);
      if (company === undefined) continue;
      const key = `${company.id}|${row.get('source_url')}`;
      const group = pages.get(key) ?? { company, rows: [] };
      group.rows.push(row);
      pages.set(key, group);
    }
    for (const group of pages.values()) {
      const first = group.rows[0];
      if (first === undefined) continue;
      const note = first.get('source_note');
      let title = (note.split('; ')[0] ?? note).slice(0, 200);
      if (/inferred/i.test(note)) title += ' [currency inferred from home country]';
      if (first.get('source_type') === 'third_party_host_of_company_report') title += ' [third-party copy]';
      if (first.get('source_type') === 'exchange_fundamentals_ftse_russell_standardised')
        title += ' [standardised by FTSE Russell via LSE]';
      const id = nameUuid(`url:${group.company.key}|${first.get('source_url')}`);
      this.#document(id, group, title, first.get('source_url'), 'period_end_if_stated');
    }
  }
}
