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
    /** A filing listed again (a later page or file of the same filer, or a co-registrant's file). */
    repeated_filing: number;
  };
}

/** The address of a filing's main document: beside its index in the filing's folder. */
export function mainDocumentUrl(cik: string, accession: string, primaryDocument: string): string {
  return `https://www.sec.gov/Archives/edgar/data/${Number(cik)}/${accession.replace(/-/g, '')}/${primaryDocument}`;
}

/**
 * Records each ingested filing's main document from SEC submissions files (DESIGN §10): the
 * document of an accession number gets the link of the primary document the submissions name. All
 * input is read and checked first (a malformed file refuses the whole, naming it); then one
 * transaction writes every change. Filings with no document yet are counted, not kept: ingest
 * the filer's figures first. The same input twice changes nothing.
 */
export async function ingestSubmissions(
  db: Kysely<Database>,
  paths: readonly string[],
  limits: IngestLimits = DEFAULT_INGEST_LIMITS,
  onProgress?: (filers: number) => void,
): Promise<SubmissionsSummary> {
  const summary: SubmissionsSummary = {
    filers: 0,
    filings: 0,
    main_documents_recorded: 0,
    unchanged: 0,
    skipped: { filing_not_ingested: 0, no_primary_document: 0, repeated_filing: 0 },
  };
  const links = new Map<string, string>();
  const read = async (all: AsyncIterable<Submissions>) => {
    for await (const { cik, filings } of all) {
      summary.filers++;
      onProgress?.(summary.filers);
      for (const f of filings) {
        summary.filings++;
        if (links.has(f.accession)) summary.skipped.repeated_filing++;
        else if (f.primaryDocument === '') summary.skipped.no_primary_document++;
        else links.set(f.accession, mainDocumentUrl(cik, f.accession, f.primaryDocument));
      }
    }
  };
  await read(readSubmissions(paths, limits));
  const held = new Map<string, { document_id: string; main_document_url: string | null }>();
  for (const d of await db
    .selectFrom('documents')
    .select(['document_id', 'accession', 'main_document_url'])
    .where('accession', 'is not', null)
    .execute()) {
    held.set(d.accession as string, d);
  }
  const changes: Array<{ documentId: string; url: string }> = [];
  for (const [accession, url] of [...links].sort()) {
    const document = held.get(accession);
    if (document === undefined) summary.skipped.filing_not_ingested++;
    else if (document.main_document_url === url) summary.unchanged++;
    else changes.push({ documentId: document.document_id, url });
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
