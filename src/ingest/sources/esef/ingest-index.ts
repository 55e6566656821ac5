import type { Kysely } from 'kysely';
import { DEFAULT_INGEST_LIMITS, type IngestLimits } from '../../../config.js';
import type { Database, EsefFilingTable } from '../../../db/schema.js';
import { readJsonInputs } from './json-inputs.js';
import { type EsefIndexEntry, readEsefIndexPage } from './read-index.js';

/** What `ingest esef-index` printed. */
export interface EsefIndexSummary {
  pages: number;
  /** Filings listed across the pages, repeats included. */
  filings: number;
  added: number;
  /** Filings held already, with something changed (a report reprocessed, a URL moved). */
  updated: number;
  unchanged: number;
  /** Filings the index has no xBRL-JSON for (its conversion failed): nothing to ingest from them. */
  without_json_url: number;
  /** Filings whose filer the index does not identify by an LEI (matched by name and country later). */
  without_lei: number;
  skipped: {
    /** A filing listed again (overlapping pages): the one processed last is kept. */
    repeated_filing: number;
    /** A filing stored already from a later processing than this listing's. */
    older_listing: number;
  };
}

/** An index entry as the `esef_filings` table holds it. */
export const esefFilingRow = (e: EsefIndexEntry): EsefFilingTable => ({
  fxo_id: e.fxoId,
  filing_id: e.filingId,
  country: e.country,
  lei: e.lei,
  entity_name: e.entityName,
  period_end: e.periodEnd,
  date_added: e.dateAdded,
  processed: e.processed,
  report_url: e.reportUrl,
  viewer_url: e.viewerUrl,
  json_url: e.jsonUrl,
  package_url: e.packageUrl,
});

/** `b` with what it leaves null taken from `a`. */
function merged(a: EsefFilingTable, b: EsefFilingTable): EsefFilingTable {
  const row = { ...b };
  for (const c of COLUMNS) if (row[c] === null) (row as Record<string, string | null>)[c] = a[c];
  return row;
}

const COLUMNS = Object.keys(esefFilingRow({} as EsefIndexEntry)) as Array<keyof EsefFilingTable>;
const same = (a: EsefFilingTable, b: EsefFilingTable): boolean => COLUMNS.every((c) => a[c] === b[c]);
/** Rows per insert: 12 parameters each stays far below both databases' limits. */
const BATCH = 200;

/**
 * Records the reports of filings.xbrl.org index pages (design §14): every page is read and
 * checked first (a malformed page or an error response refuses the whole, naming it), then one
 * transaction adds new reports and updates changed ones. The same pages twice change nothing.
 */
export async function ingestEsefIndex(
  db: Kysely<Database>,
  paths: readonly string[],
  limits: IngestLimits = DEFAULT_INGEST_LIMITS,
  onProgress?: (pages: number, done?: boolean) => void,
): Promise<EsefIndexSummary> {
  const summary: EsefIndexSummary = {
    pages: 0,
    filings: 0,
    added: 0,
    updated: 0,
    unchanged: 0,
    without_json_url: 0,
    without_lei: 0,
    skipped: { repeated_filing: 0, older_listing: 0 },
  };
  const listed = new Map<string, EsefFilingTable>();
  const pages = readJsonInputs(paths, limits, 'pages of the filings index', (chunks, source) =>
    readEsefIndexPage(chunks, source),
  );
  for await (const page of pages) {
    summary.pages++;
    onProgress?.(summary.pages);
    for (const entry of page.entries) {
      summary.filings++;
      const row = esefFilingRow(entry);
      const held = listed.get(row.fxo_id);
      if (held === undefined) {
        listed.set(row.fxo_id, row);
        continue;
      }
      summary.skipped.repeated_filing++;
      // ISO timestamps compare as text: of two listings the later processing is the current one;
      // of one processing, what either tells (a page with the entity included, one without) is kept.
      const [older, newer] = (row.processed ?? '') < (held.processed ?? '') ? [row, held] : [held, row];
      listed.set(row.fxo_id, older.processed === newer.processed ? merged(older, newer) : newer);
    }
  }
  onProgress?.(summary.pages, true);
  const rows = [...listed.values()].sort((a, b) => (a.fxo_id < b.fxo_id ? -1 : 1));
  for (const row of rows) {
    if (row.json_url === null) summary.without_json_url++;
    if (row.lei === null) summary.without_lei++;
  }
  const held = new Map((await db.selectFrom('esef_filings').selectAll().execute()).map((r) => [r.fxo_id, r]));
  const added: EsefFilingTable[] = [];
  const changed: EsefFilingTable[] = [];
  for (const listing of rows) {
    const h = held.get(listing.fxo_id);
    if (h === undefined) {
      added.push(listing);
      continue;
    }
    // The same rules as between pages: a listing older than the stored one changes nothing.
    if ((listing.processed ?? '') < (h.processed ?? '')) {
      summary.skipped.older_listing++;
      continue;
    }
    const row = listing.processed === h.processed ? merged(h, listing) : listing;
    if (same(h, row)) summary.unchanged++;
    else changed.push(row);
  }
  summary.added = added.length;
  summary.updated = changed.length;
  if (added.length === 0 && changed.length === 0) return summary;
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < added.length; i += BATCH) {
      await trx
        .insertInto('esef_filings')
        .values(added.slice(i, i + BATCH))
        .execute();
    }
    for (const { fxo_id, ...rest } of changed) {
      await trx.updateTable('esef_filings').set(rest).where('fxo_id', '=', fxo_id).execute();
    }
  });
  return summary;
}
