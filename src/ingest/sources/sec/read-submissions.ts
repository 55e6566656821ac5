import { DEFAULT_INGEST_LIMITS, type IngestLimits } from '../../../config.js';
import type { ByteLimit } from '../../core/byte-limit.js';
import { ImportError } from '../../core/issues.js';
import { jsonLimit } from '../../core/json-documents.js';
import { JsonReader } from '../../core/json-reader.js';
import { readCikJsonInputs } from './cik-json-inputs.js';
import { isAccession, normalizeCik } from './rules.js';

/** SEC's own names: `CIK##########.json`, and the pages of older filings `CIK##########-submissions-001.json`. */
const FILE_RE = /^CIK([0-9]{10})(-submissions-[0-9]{3})?\.json$/i;
/** The CIK a page of older filings is named by (`CIK##########-submissions-001.json`); undefined for any other name. */
export function submissionsPageCik(name: string): string | undefined {
  const match = FILE_RE.exec(name);
  return match?.[2] === undefined ? undefined : match[1];
}

/** A primary document is a file name, or a path inside the filing's folder; never a way out of it. */
const DOCUMENT_RE = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

/** One filing of a submissions file: its accession number, form and main document (may be empty). */
export interface SubmittedFiling {
  accession: string;
  form: string;
  primaryDocument: string;
}

/** The filings one submissions file lists for a filer. */
export interface Submissions {
  cik: string;
  filings: SubmittedFiling[];
  /** The file (or zip entry) read, for messages. */
  source: string;
}

/**
 * The filers of SEC submissions input (`data.sec.gov/submissions`): `CIK##########.json` files
 * (and their `-submissions-NNN` pages), folders of them, and zips of them (SEC's bulk
 * submissions.zip), read entry by entry. Only the filings' accession numbers, forms and primary
 * documents are kept. A file that is not submissions JSON stops the read with an
 * {@link ImportError} naming it (and the filing at fault, by its place in the lists).
 */
export function readSubmissions(
  paths: readonly string[],
  limits: IngestLimits = DEFAULT_INGEST_LIMITS,
): AsyncGenerator<Submissions> {
  const limit = jsonLimit(limits);
  return readCikJsonInputs(paths, limits, FILE_RE, (chunks, source, name) => readFile(chunks, source, name, limit));
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * One submissions document: `{cik, …, filings: {recent: {accessionNumber: […], form: […],
 * primaryDocument: […], …}, files: […]}}`, or one of its pages (the `recent` object alone, its
 * CIK in the file name). Everything else in it is checked as JSON and let go.
 */
async function readFile(chunks: AsyncIterable<Buffer>, source: string, name: string, limit: ByteLimit): Promise<Submissions> {
  const refuse = (message: string): never => {
    throw new ImportError([{ file: source, line: 0, message }]);
  };
  const reader = new JsonReader(chunks, source);
  try {
    if ((await reader.peek()) !== 0x7b) {
      await reader.skip();
      refuse('is not a submissions object');
    }
    let cikValue: unknown;
    let recent: unknown;
    const page: Json = {};
    for await (const key of reader.entries()) {
      if (key === 'cik') cikValue = await reader.value();
      else if (key === 'filings') {
        if ((await reader.peek()) !== 0x7b) {
          await reader.skip();
          refuse('filings is not an object');
        }
        for await (const part of reader.entries()) {
          if (part === 'recent') recent = await reader.value(limit.bytes);
          else await reader.skip();
        }
      } else if (key === 'accessionNumber' || key === 'form' || key === 'primaryDocument') {
        page[key] = await reader.value(limit.bytes);
      } else await reader.skip();
    }
    await reader.end();
    const paged = recent === undefined && 'accessionNumber' in page;
    const cik = normalizeCik(paged ? FILE_RE.exec(name)?.[1] : cikValue);
    if (cik === undefined) return refuse('has no valid cik');
    const lists = paged ? page : recent;
    if (!isObject(lists)) return refuse('has no filings.recent object');
    return { cik, filings: filingsOf(lists, refuse), source };
  } finally {
    await reader.close();
  }
}

/** The filings of SEC's column lists: the n-th filing is the n-th item of each. */
function filingsOf(lists: Json, refuse: (message: string) => never): SubmittedFiling[] {
  const column = (name: string): unknown[] => {
    const v = lists[name];
    if (!Array.isArray(v)) return refuse(`filings.recent.${name} is not a list`);
    return v;
  };
  const accessions = column('accessionNumber');
  const forms = column('form');
  const documents = column('primaryDocument');
  if (forms.length !== accessions.length || documents.length !== accessions.length) {
    refuse('filings.recent: accessionNumber, form and primaryDocument differ in length');
  }
  return accessions.map((accession, i) => {
    const at = `filing ${i + 1}`;
    const form = forms[i];
    const document = documents[i];
    if (typeof accession !== 'string' || !isAccession(accession)) {
      return refuse(`${at}: accessionNumber "${String(accession).slice(0, 40)}" is not an accession number`);
    }
    if (typeof form !== 'string') return refuse(`${at} (accession ${accession}): form is not a string`);
    if (typeof document !== 'string' || (document !== '' && (!DOCUMENT_RE.test(document) || document.includes('..')))) {
      return refuse(`${at} (accession ${accession}): primaryDocument "${String(document).slice(0, 40)}" is not a file name`);
    }
    return { accession, form, primaryDocument: document };
  });
}
