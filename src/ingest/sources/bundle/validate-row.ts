import { isValidIsin, isValidLei, TICKER_MAX_LENGTH } from '../../../catalog/identifiers.js';
import { isMicCode } from '../../../catalog/mic-codes.js';
import { DOCUMENT_KINDS, type DocumentKind, type DocumentStatus } from '../../../db/schema.js';
import { isCurrency, SUB_UNITS } from '../../../money/currencies.js';
import { parseRate } from '../../../money/normalize.js';
import {
  type Checked,
  INTEGER_RE,
  integer,
  MAX_PERIOD,
  Messages,
  MIN_PERIOD,
  text,
  UUID_RE,
  uuid,
} from '../../core/field-checks.js';
import { parseTraceFields, traceFieldsText } from '../../filings/source.js';

export type { Checked } from '../../core/field-checks.js';

const DATE_RE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;

export { MAX_PERIOD, MIN_PERIOD } from '../../core/field-checks.js';

function optional(v: string): string | null {
  const t = v.trim();
  return t === '' ? null : t;
}

function ticker(m: Messages, v: string): string {
  const t = v.trim();
  if (t.length < 1 || t.length > TICKER_MAX_LENGTH || /\s/.test(t)) {
    m.add(`ticker "${v}" must be 1 to ${TICKER_MAX_LENGTH} characters without spaces`);
  }
  return t;
}

function mic(m: Messages, v: string): string {
  if (!isMicCode(v)) m.add(`mic_code "${v}" is not one of the spec's MIC codes`);
  return v;
}

function isin(m: Messages, v: string): string | null {
  const t = optional(v);
  if (t !== null && !isValidIsin(t)) m.add(`isin "${t}" is not a valid ISIN (shape or check digit)`);
  return t;
}

const CIK_RE = /^[0-9]{1,10}$/;
const ACCESSION_RE = /^[0-9]{10}-[0-9]{2}-[0-9]{6}$/;
const FORM_RE = /^[0-9A-Z][0-9A-Z-]{0,9}(\/A)?$/;
const CONCEPT_RE = /^[a-z][a-z0-9-]*:[A-Za-z][A-Za-z0-9_]*$/;

/** A CIK as stored: ten digits with leading zeros (SEC file names write it so). */
export function padCik(cik: string | number): string {
  return String(cik).padStart(10, '0');
}

function cik(m: Messages, v: string): string | null {
  const t = optional(v);
  if (t === null) return null;
  if (!CIK_RE.test(t) || /^0+$/.test(t)) {
    m.add(`cik "${t}" is not a CIK (1 to 10 digits)`);
    return null;
  }
  return padCik(t);
}

export interface FxRow {
  currency: string;
  year: number;
  usdPerUnit: string;
  source: string;
}

export function checkFxRate(v: Record<string, string>): Checked<FxRow> {
  const m = new Messages();
  const currency = v.currency ?? '';
  if (currency === 'USD') m.add('currency USD needs no rate: USD figures pass through unchanged');
  else if (SUB_UNITS[currency] !== undefined) m.add(`currency ${currency} takes the rate of ${SUB_UNITS[currency]?.parent}`);
  else if (!isCurrency(currency)) m.add(`currency "${currency}" is not one of the spec's currencies`);
  const year = integer(m, 'year', v.year ?? '', MIN_PERIOD, MAX_PERIOD);
  const usdPerUnit = (v.usd_per_unit ?? '').trim();
  if (parseRate(usdPerUnit) === undefined) m.add(`usd_per_unit "${usdPerUnit}" is not a positive decimal number`);
  const source = text(m, 'source', v.source ?? '', 500);
  return m.result({ currency, year, usdPerUnit, source });
}

export interface CompanyRow {
  companyId: string;
  name: string;
  country: string | null;
  lei: string | null;
  /** With `micCode`, the primary listing; both null for a company without one (design §19.1). */
  ticker: string | null;
  micCode: string | null;
  isin: string | null;
  cik: string | null;
  /** Further CIKs, ten digits each, space-separated; null for none. */
  otherCiks: string | null;
}

/** At most this many further CIKs a company: a few successions, not a list of filers. */
const MAX_OTHER_CIKS = 20;

function otherCiks(m: Messages, v: string, own: string | null): string | null {
  const given = v.trim() === '' ? [] : v.trim().split(/\s+/);
  const ciks = given.map((c) => cik(m, c));
  if (ciks.includes(null)) return null;
  const unique = [...new Set(ciks as string[])];
  if (unique.length !== given.length) m.add('other_ciks names a CIK twice');
  if (own !== null && unique.includes(own)) m.add(`other_ciks holds the company's own cik ${own}`);
  if (unique.length > MAX_OTHER_CIKS) m.add(`other_ciks holds more than ${MAX_OTHER_CIKS} CIKs`);
  return unique.length === 0 ? null : unique.join(' ');
}

export function checkCompany(v: Record<string, string>): Checked<CompanyRow> {
  const m = new Messages();
  const companyId = uuid(m, 'company_id', v.company_id ?? '');
  const name = text(m, 'name', v.name ?? '', 300);
  const country = optional(v.country ?? '');
  if (country !== null && (country.length > 100 || !/^\p{L}[\p{L} .,'()-]*$/u.test(country))) {
    m.add(`country "${country}" is not a country name`);
  }
  const lei = optional(v.lei ?? '');
  if (lei !== null && !isValidLei(lei)) m.add(`lei "${lei}" is not a valid LEI (shape or check digits)`);
  // A company added from its filings alone (design §19.1) has no listing: ticker and mic_code both empty.
  const unlisted = (v.ticker ?? '').trim() === '' && (v.mic_code ?? '').trim() === '';
  const ownCik = cik(m, v.cik ?? '');
  if (unlisted && optional(v.isin ?? '') !== null) m.add('isin needs a listing: give its ticker and mic_code');
  return m.result({
    companyId,
    name,
    country,
    lei,
    ticker: unlisted ? null : ticker(m, v.ticker ?? ''),
    micCode: unlisted ? null : mic(m, v.mic_code ?? ''),
    isin: isin(m, v.isin ?? ''),
    cik: ownCik,
    otherCiks: otherCiks(m, v.other_ciks ?? '', ownCik),
  });
}

export interface ListingRow {
  companyId: string;
  ticker: string;
  micCode: string;
  isin: string | null;
}

export function checkListing(v: Record<string, string>): Checked<ListingRow> {
  const m = new Messages();
  return m.result({
    companyId: uuid(m, 'company_id', v.company_id ?? ''),
    ticker: ticker(m, v.ticker ?? ''),
    micCode: mic(m, v.mic_code ?? ''),
    isin: isin(m, v.isin ?? ''),
  });
}

export interface DocumentRow {
  documentId: string;
  companyId: string;
  title: string;
  sourceUrl: string;
  publishedOn: string;
  reportingPeriod: number;
  status: DocumentStatus;
  form: string | null;
  accession: string | null;
  kind: DocumentKind;
  /** A filing's main document (its primary HTML), beside the filing index of `sourceUrl`. */
  mainDocumentUrl: string | null;
  /**
   * Where the document came from and that source's key for it (design §15), as export writes them;
   * both null when the bundle leaves them out (the database then keeps or derives them).
   */
  source: string | null;
  sourceKey: string | null;
}

/** The longest source key a bundle may give (an ESEF `fxo_id` is some 40 characters). */
const SOURCE_KEY_MAX_LENGTH = 200;
/** A source's name as the sources store it (`sec`, `esef`, `bundle`): open, as new sources are one line each. */
const SOURCE_NAME_RE = /^[a-z][a-z0-9-]{0,39}$/;

/**
 * A document's source and key: both or neither; an SEC filing's key is its accession number (the
 * row's accession column), a bundle document's its document_id.
 */
function sourceIdentity(
  m: Messages,
  v: Record<string, string>,
  documentId: string,
  accession: string | null,
): { source: string | null; sourceKey: string | null } {
  const source = optional(v.source ?? '');
  const sourceKey = optional(v.source_key ?? '');
  if (source === null && sourceKey === null) return { source: null, sourceKey: null };
  if (source === null || sourceKey === null) {
    m.add(`source and source_key go together: give both or neither`);
    return { source: null, sourceKey: null };
  }
  if (!SOURCE_NAME_RE.test(source)) {
    m.add(`source "${source}" is not a source name (sec, esef, bundle…: lowercase letters, digits and hyphens)`);
  } else if (sourceKey.length > SOURCE_KEY_MAX_LENGTH) {
    m.add(`source_key is longer than ${SOURCE_KEY_MAX_LENGTH} characters`);
  } else if (source === 'sec' ? sourceKey !== accession : accession !== null) {
    // The database keeps an SEC filing's accession number beside its key, and only for SEC filings.
    m.add(
      source === 'sec'
        ? `source_key "${sourceKey}" of an sec document must be its accession number, given in the accession column too`
        : `a document with an accession number comes from source sec, not "${source}"`,
    );
  } else if (source === 'bundle' && sourceKey !== documentId) {
    m.add(`source_key "${sourceKey}" of a bundle document must be its document_id`);
  }
  return { source, sourceKey };
}

/** Days in a month of the proleptic Gregorian calendar. */
function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** True for a real calendar date written YYYY-MM-DD. */
export function isDate(v: string): boolean {
  const match = DATE_RE.exec(v);
  const [year, month, day] = match === null ? [0, 0, 0] : [Number(match[1]), Number(match[2]), Number(match[3])];
  return !(match === null || month < 1 || month > 12 || day < 1 || day > daysIn(year, month));
}

function date(m: Messages, v: string, name = 'published_on'): string {
  if (!isDate(v)) m.add(`${name} "${v}" is not a date (YYYY-MM-DD)`);
  return v;
}

export function checkDocument(v: Record<string, string>): Checked<DocumentRow> {
  const m = new Messages();
  const sourceUrl = (v.source_url ?? '').trim();
  if (!isHttpUrl(sourceUrl)) m.add(`source_url "${sourceUrl}" is not an http(s) URL`);
  const mainDocumentUrl = optional((v.main_document_url ?? '').trim());
  if (mainDocumentUrl !== null && !isHttpUrl(mainDocumentUrl)) {
    m.add(`main_document_url "${mainDocumentUrl}" is not an http(s) URL`);
  }
  const status = v.status ?? '';
  if (status !== 'pending' && status !== 'processed' && status !== 'failed') {
    m.add(`status "${status}" must be pending, processed or failed`);
  }
  const documentId = uuid(m, 'document_id', v.document_id ?? '');
  const companyId = uuid(m, 'company_id', v.company_id ?? '');
  const title = text(m, 'title', v.title ?? '', 500);
  const kind = (optional(v.kind ?? '') ?? 'financial') as DocumentKind;
  if (!DOCUMENT_KINDS.includes(kind)) m.add(`kind "${kind}" must be financial or sustainability`);
  // A document's date may be unknown (a sustainability report's source gives none, an ESEF report
  // the index does not list): empty, shown so, never made up; its year of disclosure is the year
  // after its period.
  const publishedOn = (v.published_on ?? '').trim() === '' ? '' : date(m, v.published_on ?? '');
  const reportingPeriod = integer(m, 'reporting_period', v.reporting_period ?? '', MIN_PERIOD, MAX_PERIOD);
  // A report can come out within the year it covers (a fiscal year ending early), never before it.
  if (m.list.length === 0 && publishedOn !== '' && Number(publishedOn.slice(0, 4)) < reportingPeriod) {
    m.add(`published_on ${publishedOn} is before reporting_period ${reportingPeriod} began`);
  }
  const form = optional(v.form ?? '');
  if (form !== null && !FORM_RE.test(form)) m.add(`form "${form}" is not an SEC form name (10-K, 20-F/A…)`);
  const accession = optional(v.accession ?? '');
  if (accession !== null && !ACCESSION_RE.test(accession)) {
    m.add(`accession "${accession}" is not an accession number (0000000000-00-000000)`);
  }
  const { source, sourceKey } = sourceIdentity(m, v, documentId, accession);
  return m.result({
    documentId,
    companyId,
    title,
    sourceUrl,
    publishedOn,
    reportingPeriod,
    status: status as DocumentStatus,
    form,
    accession,
    kind,
    mainDocumentUrl,
    source,
    sourceKey,
  });
}

/** True for an absolute http: or https: URL. */
export function isHttpUrl(text: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}

export interface RevenueRow {
  companyId: string;
  documentId: string;
  reportingPeriod: number;
  value: number;
  currency: string;
  concept: string | null;
  periodStart: string | null;
  periodEnd: string | null;
  candidates: string | null;
  confirmedBy: string | null;
  /** The source's trace fields as stored (`source_detail`), or null. */
  sourceDetail: string | null;
}

export function checkRevenue(v: Record<string, string>): Checked<RevenueRow> {
  const m = new Messages();
  const currency = v.currency ?? '';
  if (!isCurrency(currency)) m.add(`currency "${currency}" is not one of the spec's currencies`);
  return m.result({
    companyId: uuid(m, 'company_id', v.company_id ?? ''),
    documentId: uuid(m, 'document_id', v.document_id ?? ''),
    reportingPeriod: integer(m, 'reporting_period', v.reporting_period ?? '', MIN_PERIOD, MAX_PERIOD),
    value: integer(m, 'value', v.value ?? '', -Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER),
    currency,
    ...filedPeriod(m, v),
    candidates: pairs(m, 'candidates', v.candidates ?? '', CONCEPT_RE, 'a taxonomy:Name concept'),
    confirmedBy: pairs(m, 'confirmed_by', v.confirmed_by ?? '', UUID_RE, 'a document_id'),
    sourceDetail: sourceDetail(m, v.source_detail ?? ''),
  });
}

/** A source's trace fields: a JSON list of `{label, value, kind?}` (as `traceFieldsText` writes it), or null when empty. */
function sourceDetail(m: Messages, v: string): string | null {
  const t = optional(v);
  if (t === null) return null;
  let count = -1;
  try {
    const parsed: unknown = JSON.parse(t);
    if (Array.isArray(parsed)) count = parsed.length;
  } catch {
    // reported below
  }
  const fields = parseTraceFields(t);
  if (count < 1 || fields.length !== count) {
    m.add('source_detail is not a JSON list of {"label","value","kind"} fields');
    return null;
  }
  return traceFieldsText(fields);
}

/** A list of `key=integer` pairs separated by spaces (`us-gaap:Revenues=17997000000`), or null when empty. */
function pairs(m: Messages, name: string, v: string, key: RegExp, what: string): string | null {
  const t = optional(v);
  if (t === null) return null;
  const items = t.split(/\s+/);
  for (const item of items) {
    const at = item.lastIndexOf('=');
    if (at < 0 || !key.test(item.slice(0, at)) || !INTEGER_RE.test(item.slice(at + 1))) {
      m.add(`${name}: "${item}" is not ${what}=integer`);
      return null;
    }
  }
  return items.join(' ');
}

/**
 * A filed figure's concept and period end go together; the start is optional (a data set gives
 * only the number of quarters), and when given comes before the end.
 */
function filedPeriod(m: Messages, v: Record<string, string>) {
  const concept = optional(v.concept ?? '');
  const periodStart = optional(v.period_start ?? '');
  const periodEnd = optional(v.period_end ?? '');
  if ((concept === null) !== (periodEnd === null) || (periodStart !== null && periodEnd === null)) {
    m.add('concept and period_end go together (period_start too, when given): give them or none');
  }
  if (concept !== null && !CONCEPT_RE.test(concept)) m.add(`concept "${concept}" is not a taxonomy:Name concept`);
  if (periodStart !== null) date(m, periodStart, 'period_start');
  if (periodEnd !== null) date(m, periodEnd, 'period_end');
  if (periodStart !== null && periodEnd !== null && periodStart > periodEnd) {
    m.add(`period_start ${periodStart} is after period_end ${periodEnd}`);
  }
  return { concept, periodStart, periodEnd };
}
