import type { Kysely } from 'kysely';
import { DEFAULT_INGEST_LIMITS, type IngestLimits } from '../../../config.js';
import type { Database } from '../../../db/schema.js';
import { bumpVersion } from '../../../db/versions.js';
import { readSubmissions, type Submissions } from './read-submissions.js';

/** What `ingest sec-submissions` printed: filings read, main documents recorded, and filings left as they were. */
export interface SubmissionsSummary {
  filers: number;
  filings: number;
  /** Filings whose document got its main document link (or a changed one). */
  main_documents_recorded: number;
  /** Filings whose document already had this link. */
  unchanged: number;
  skipped: {
    /** Filings with no document in the database: ingest their companyfacts or data sets, then this again. */
    filing_not_ingested: number;
    /** Filings the SEC names no primary document for. */
    no_primary_document: number;
    /** A filing listed again by the same filer (a later page, or its file given twice). */
    repeated_filing: number;
    /**
     * Filings whose document belongs to a company of another CIK (or of none): a co-registrant's
     * listing of a filing stored for the other filer, or a filing stored under the wrong company.
     * Always counted by {@link ingestSubmissions}; optional so that a summary of nothing may omit it.
     */
    filing_of_other_company?: number;
  };
}

/** The address of a filing's main document: beside its index in the filing's folder. */
export function mainDocumentUrl(cik: string, accession: string, primaryDocument: string): string {
  return `https://www.sec.gov/Archives/edgar/data/${Number(cik)}/${accession.replace(/-/g, '')}/${primaryDocument}`;
}

/**
 * Records each ingested filing's main document from SEC submissions files (design §10): the
 * document of an accession number gets the link of the primary document the submissions name,
 * only when the document's company has the submissions file's CIK. All
 * input is read and checked first (a malformed file refuses the whole, naming it); then one
 * transaction writes every change. Filings with no document yet are counted, not kept: ingest
 * the filer's figures first. The same input twice changes nothing.
 */
export async function ingestSubmissions(
  db: Kysely<Database>,
  paths: readonly string[],
  limits: IngestLimits = DEFAULT_INGEST_LIMITS,
  onProgress?: (filers: number, done?: boolean) => void,
): Promise<SubmissionsSummary> {
  const summary: SubmissionsSummary = {
    filers: 0,
    filings: 0,
    main_documents_recorded: 0,
    unchanged: 0,
    skipped: { filing_not_ingested: 0, no_primary_document: 0, repeated_filing: 0, filing_of_other_company: 0 },
  };
  // By accession, then by the CIK whose submissions list it: a co-registrant's file lists the filing too.
  const links = new Map<string, Map<string, string>>();
  const read = async (all: AsyncIterable<Submissions>) => {
    for await (const { cik, filings } of all) {
      summary.filers++;
      onProgress?.(summary.filers);
      for (const f of filings) {
        summary.filings++;
        const byCik = links.get(f.accession) ?? new Map<string, string>();
        if (byCik.has(cik)) summary.skipped.repeated_filing++;
        else if (f.primaryDocument === '') summary.skipped.no_primary_document++;
        else links.set(f.accession, byCik.set(cik, mainDocumentUrl(cik, f.accession, f.primaryDocument)));
      }
    }
    onProgress?.(summary.filers, true);
  };
  await read(readSubmissions(paths, limits));
  const held = await heldFilings(db);
  const changes: Array<{ documentId: string; url: string }> = [];
  for (const [accession, byCik] of [...links].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const document = held.get(accession);
    for (const [cik, url] of byCik) {
      if (document === undefined) summary.skipped.filing_not_ingested++;
      // A submissions file speaks for its own CIK only: the main document it names is never put
      // on a filing stored for another company (design §10).
      else if (document.cik !== cik) {
        summary.skipped.filing_of_other_company = (summary.skipped.filing_of_other_company ?? 0) + 1;
      } else if (document.main_document_url === url) summary.unchanged++;
      else changes.push({ documentId: document.document_id, url });
    }
  }
  if (changes.length === 0) return summary;
  await db.transaction().execute(async (trx) => {
    // A write first, so SQLite takes its write lock at once; servers learn of the change.
    await bumpVersion(trx, 'data');
    for (const { documentId, url } of changes) {
      await trx.updateTable('documents').set({ main_document_url: url }).where('document_id', '=', documentId).execute();
    }
  });
  summary.main_documents_recorded = changes.length;
  return summary;
}

/** Every stored SEC filing by accession number, with its company's CIK (null when the company has none). */
async function heldFilings(
  db: Kysely<Database>,
): Promise<Map<string, { document_id: string; main_document_url: string | null; cik: string | null }>> {
  const rows = await db
    .selectFrom('documents as d')
    .leftJoin('companies as c', 'c.company_id', 'd.company_id')
    .select(['d.document_id', 'd.accession', 'd.main_document_url', 'c.cik'])
    .where('d.accession', 'is not', null)
    .execute();
  return new Map(rows.map((d) => [d.accession as string, d]));
}
