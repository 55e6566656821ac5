import { stableId } from '../../core/stable-id.js';

/**
 * The rules of design §10 that are SEC's own and every SEC source shares: which forms are annual
 * reports, how a CIK and an accession number are written, and which document a filing is. The
 * rules every source shares (periods, concept precedence, restatements) are in `ingest/filings/`.
 */

/** Annual reports and their amendments; never 10-KT (a transition period) nor quarterly forms. */
const ANNUAL_FORM_RE = /^(10-K|20-F|40-F)(\/A)?$/;
export const isAnnualForm = (form: string): boolean => ANNUAL_FORM_RE.test(form);

/** The filing index page on EDGAR, where every document of the filing is listed. */
export function filingIndexUrl(cik: string, accession: string): string {
  return `https://www.sec.gov/Archives/edgar/data/${Number(cik)}/${accession.replace(/-/g, '')}/${accession}-index.htm`;
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
