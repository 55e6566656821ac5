import type { Kysely } from 'kysely';
import type { IngestLimits } from '../../../config.js';
import type { Database, EsefFilingTable } from '../../../db/schema.js';
import type { EsefFact, EsefReport, EsefSkips } from './esef-report.js';
import { readJsonInputs } from './json-inputs.js';
import { NotAReportError, readEsefReport } from './read-report.js';

/** One report as a document (design §14.5): identified, dated and linked through the index where it lists it. */
export interface EsefFiling {
  /** The document's key in the ESEF source: the `fxo_id`, else `{LEI}-{period end}-{language}`. */
  key: string;
  /**
   * The key the report has without an index entry (`{LEI}-{period end}-{language}`): a report stored
   * before the index listed it keeps that key, and so stays one document (`ingest-esef.ts`).
   */
  unlistedKey: string;
  /** Null when the index does not list the report. */
  fxoId: string | null;
  periodEnd: string | null;
  language: string | null;
  /** YYYY-MM-DD the index added the report (published_on); null when unknown. */
  publishedOn: string | null;
  /** The viewer page where known, else the report's JSON; null when the index does not list it. */
  sourceUrl: string | null;
  reportUrl: string | null;
  viewerUrl: string | null;
  jsonUrl: string | null;
  /** The file (or zip entry) it was read from. */
  source: string;
  facts: EsefFact[];
  skipped: EsefSkips;
}

/** Every report of one filer in the input: the shared pipeline finds restatements across them. */
export interface EsefFiler {
  lei: string | null;
  /** The index's entity name, else the name the report tags; null when neither says. */
  name: string | null;
  /** ISO 3166 code the index files the report under (`ES`); null when unlisted. */
  country: string | null;
  filings: EsefFiling[];
  /** The first file read of the filer, for messages. */
  source: string;
}

/** The reports filings.xbrl.org's index lists (`ingest esef-index`), looked up as reports come. */
export interface EsefIndexLookup {
  /** The listing of a report read from `name` (a file named as the index's JSON URL names it), by LEI and period end otherwise. */
  find(name: string, lei: string | null, periodEnd: string | null): EsefFilingTable | undefined;
}

const fileName = (url: string | null): string | undefined => url?.slice(url.lastIndexOf('/') + 1);

/** A lookup over index rows: by JSON file name first, else LEI and period end (the latest processed of refilings). */
export function esefIndexLookup(rows: readonly EsefFilingTable[]): EsefIndexLookup {
  const byFile = new Map<string, EsefFilingTable>();
  const byPeriod = new Map<string, EsefFilingTable>();
  for (const row of rows) {
    const file = fileName(row.json_url);
    if (file !== undefined) byFile.set(file, row);
    if (row.lei === null) continue;
    const key = `${row.lei} ${row.period_end}`;
    const held = byPeriod.get(key);
    // A report filed again (sequence 1 after 0) replaces the earlier one: the later processing stands.
    if (held === undefined || (row.processed ?? '') > (held.processed ?? '')) byPeriod.set(key, row);
  }
  return {
    find(name, lei, periodEnd) {
      const listed = byFile.get(name);
      if (listed !== undefined && (lei === null || listed.lei === null || listed.lei === lei)) return listed;
      return lei === null || periodEnd === null ? undefined : byPeriod.get(`${lei} ${periodEnd}`);
    },
  };
}

/** The index as `ingest esef-index` stored it. */
export async function loadEsefIndex(db: Kysely<Database>): Promise<EsefIndexLookup> {
  return esefIndexLookup(await db.selectFrom('esef_filings').selectAll().execute());
}

/** A report read, identified through the index. */
function filingOf(report: EsefReport, listed: EsefFilingTable | undefined): EsefFiling {
  const periodEnd = listed?.period_end ?? report.periodEnd;
  const unlistedKey = `${report.lei ?? report.entity ?? 'unknown'}-${report.periodEnd ?? 'unknown'}-${report.language ?? 'und'}`;
  return {
    key: listed?.fxo_id ?? unlistedKey,
    unlistedKey,
    fxoId: listed?.fxo_id ?? null,
    periodEnd,
    language: report.language,
    publishedOn: listed?.date_added?.slice(0, 10) ?? null,
    sourceUrl: listed?.viewer_url ?? listed?.json_url ?? null,
    reportUrl: listed?.report_url ?? null,
    viewerUrl: listed?.viewer_url ?? null,
    jsonUrl: listed?.json_url ?? null,
    source: report.source,
    facts: report.facts,
    skipped: report.skipped,
  };
}

/** What {@link readEsefFilers} read beyond the filers: reports given twice are counted, not kept twice. */
export interface EsefReadCounts {
  reports: number;
  /** A report whose key came already in this input (the same file twice, or in a folder and a zip). */
  repeated_report: number;
  /**
   * Files passed over as no report: a JSON file that is not xBRL-JSON (a page of the index, a
   * package's metadata), or a file of a folder not named `.json`.
   */
  not_report: number;
}

/**
 * The filers of xBRL-JSON input (files, folders and their subfolders, zips), each with every report of theirs in the
 * input, identified through the index: reports are read one at a time and only their kept facts
 * held, then grouped by LEI (a report without one stands alone, to be matched by name and
 * country). Grouping needs the whole input read first, which the all-or-nothing ingest does anyway.
 */
export async function readEsefFilers(
  paths: readonly string[],
  limits: IngestLimits,
  concepts: readonly string[],
  index: EsefIndexLookup,
  counts: EsefReadCounts = { reports: 0, repeated_report: 0, not_report: 0 },
  notReports: 'pass' | 'refuse' = 'pass',
): Promise<EsefFiler[]> {
  const filers = new Map<string, EsefFiler>();
  const keys = new Set<string>();
  const reports = readJsonInputs(
    paths,
    limits,
    'xBRL-JSON reports',
    async (chunks, source, name) => {
      try {
        return await readEsefReport(chunks, source, name, concepts);
      } catch (error) {
        // Caught here, inside the read of one file, so that the files after it are still read.
        if (!(error instanceof NotAReportError) || notReports === 'refuse') throw error;
        counts.not_report++;
        return undefined;
      }
    },
    () => {
      counts.not_report++;
    },
  );
  for await (const report of reports) {
    if (report === undefined) continue;
    counts.reports++;
    const listed = index.find(report.name, report.lei, report.periodEnd);
    const filing = filingOf(report, listed);
    if (keys.has(filing.key)) {
      counts.repeated_report++;
      continue;
    }
    keys.add(filing.key);
    const lei = report.lei ?? listed?.lei ?? null;
    const group = lei ?? `report ${filing.key}`;
    const filer = filers.get(group) ?? { lei, name: null, country: null, filings: [], source: report.source };
    filer.name ??= listed?.entity_name ?? report.entityName;
    filer.country ??= listed?.country ?? null;
    filer.filings.push(filing);
    filers.set(group, filer);
  }
  return [...filers.values()];
}
