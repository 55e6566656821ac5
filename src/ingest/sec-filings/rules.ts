import { createHash } from 'node:crypto';

/**
 * The rules of DESIGN §10 that every SEC source shares: which facts are annual revenue, which
 * reporting period a fact belongs to, and which document a filing is.
 */

/**
 * Revenue concepts, most preferred first (DESIGN §10.3): a filing that tags one period with several
 * of them is read from the first present. A total comes before any part of it: a utility's total
 * operating revenues (`RegulatedAndUnregulatedOperatingRevenue`) before its contract revenue, a
 * bank's total net revenue before anything narrower. Never the largest candidate: a contract
 * revenue can exceed the total it is part of. Component concepts (goods only, services only) are
 * absent on purpose: taken alone they understate a company's revenue.
 */
export const REVENUE_CONCEPTS: readonly string[] = [
  'us-gaap:Revenues',
  'us-gaap:RegulatedAndUnregulatedOperatingRevenue',
  'us-gaap:RevenuesNetOfInterestExpense',
  'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax',
  'us-gaap:RevenueFromContractWithCustomerIncludingAssessedTax',
  'us-gaap:SalesRevenueNet',
  'ifrs-full:Revenue',
  'ifrs-full:RevenueFromContractsWithCustomers',
];

const RANK = new Map(REVENUE_CONCEPTS.map((c, i) => [c, i]));

/** A concept's place in {@link REVENUE_CONCEPTS}, or undefined when it is not a revenue concept. */
export const conceptRank = (concept: string): number | undefined => RANK.get(concept);

/** Annual reports and their amendments; never 10-KT (a transition period) nor quarterly forms. */
const ANNUAL_FORM_RE = /^(10-K|20-F|40-F)(\/A)?$/;
export const isAnnualForm = (form: string): boolean => ANNUAL_FORM_RE.test(form);

const DAY_MS = 86_400_000;
const utc = (date: string): number => Date.parse(`${date}T00:00:00Z`);

/** The day before the same date `months` later: the last day of a period of whole months. */
function endOfMonths(start: string, months: number): number {
  const d = new Date(utc(start));
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d.getTime() - DAY_MS;
}

/**
 * True for a fiscal year: 52 or 53 weeks (364 or 371 days, both ends included) or 12 calendar
 * months. Quarters, half years and the odd stub period of a fiscal-year change are not.
 */
export function isAnnualPeriod(start: string, end: string): boolean {
  const days = (utc(end) - utc(start)) / DAY_MS + 1;
  return days === 364 || days === 371 || utc(end) === endOfMonths(start, 12);
}

/**
 * The calendar year in which the fiscal year ends; one ending on or before 7 January counts to the
 * year before (a 52/53-week year that ran a few days over). Never a source's `fy`: a 10-K reports
 * its comparatives under its own `fy`.
 */
export function reportingPeriodOf(end: string): number {
  const year = Number(end.slice(0, 4));
  return end.slice(5, 7) === '01' && Number(end.slice(8, 10)) <= 7 ? year - 1 : year;
}

/** The filing index page on EDGAR, where every document of the filing is listed. */
export function filingIndexUrl(cik: string, accession: string): string {
  return `https://www.sec.gov/Archives/edgar/data/${Number(cik)}/${accession.replace(/-/g, '')}/${accession}-index.htm`;
}

/** A name-based UUID (version 5 layout), so the same key gives the same id on every machine. */
function stableId(key: string): string {
  const h = createHash('sha256').update(key).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** One document per filing, whichever source brought it. */
export const filingDocumentId = (accession: string): string => stableId(`sec-filing:${accession}`);

/** A company first known from SEC's ticker files. */
export const secCompanyId = (cik: string): string => stableId(`sec-company:${cik}`);

/** A CIK as stored: ten digits with leading zeros, as SEC's file names write it. */
export function normalizeCik(value: unknown): string | undefined {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!/^[0-9]{1,10}$/.test(text) || Number(text) === 0) return undefined;
  return text.padStart(10, '0');
}

const ACCESSION_RE = /^[0-9]{10}-[0-9]{2}-[0-9]{6}$/;
export const isAccession = (v: string): boolean => ACCESSION_RE.test(v);
const DATE_RE = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;
export const isIsoDate = (v: string): boolean => DATE_RE.test(v) && !Number.isNaN(utc(v));
