import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { withBulkSession } from '../db/bulk-session.js';
import type { Database } from '../db/schema.js';
import { bumpVersion, readVersions } from '../db/versions.js';
import { applyStage } from './apply-stage.js';
import {
  BUNDLE_FILE_NAMES,
  BUNDLE_FILES,
  type BundleFile,
  ImportError,
  type ImportIssue,
  OPTIONAL_COLUMNS,
} from './bundle-files.js';
import { readCsv } from './read-csv.js';
import { renormalize } from './renormalize.js';
import { createStage, dropStage, indexStage, type StageDb, type StageTables, StageWriter } from './stage.js';
import { checkStage } from './stage-checks.js';
import { type Rates, rateKey, STAGE_TABLE, stageRow } from './stage-row.js';

export { pointId } from './stage-row.js';

export interface ImportSummary {
  fx_rates: number;
  companies: number;
  listings: number;
  documents: number;
  revenues: number;
  /** Data points already stored whose USD value moved because their FX rate changed. */
  renormalized: number;
}

/** What an import is busy with: reading (and staging) the files, checking the whole, writing it. */
export type ImportPhase = 'reading' | 'checking' | 'applying';

/** How far reading has come: bytes of all the bundle's files, and rows of the file being read. */
export interface ImportProgress {
  file: BundleFile;
  rows: number;
  bytesRead: number;
  totalBytes: number;
}

export interface ImportOptions {
  /** Called as rows are read, for a progress bar. */
  onProgress?: (progress: ImportProgress) => void;
  /** Called as each phase begins; the import waits for a returned promise before going on. */
  onPhase?: (phase: ImportPhase) => void | Promise<void>;
}

/** Stop reading after this many problems: the operator has enough to fix. */
const MAX_ISSUES = 200;

async function loadRates(db: Kysely<Database>): Promise<Rates> {
  const rows = await db.selectFrom('fx_rates').select(['currency', 'year', 'usd_per_unit', 'source']).execute();
  return new Map(rows.map((r) => [rateKey(r.currency, r.year), { usdPerUnit: r.usd_per_unit, source: r.source }]));
}

function bundleFiles(dir: string): BundleFile[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new ImportError([{ file: dir, line: 0, message: 'is not a folder' }]);
  }
  // A misspelt file name would otherwise be skipped without a word.
  const strangers = readdirSync(dir).filter((f) => f.toLowerCase().endsWith('.csv') && !(f in BUNDLE_FILES));
  if (strangers.length > 0) {
    throw new ImportError(
      strangers.sort().map((f) => ({ file: f, line: 0, message: `is not a bundle file (${BUNDLE_FILE_NAMES.join(', ')})` })),
    );
  }
  const present = BUNDLE_FILE_NAMES.filter((f) => existsSync(join(dir, f)));
  if (present.length === 0) {
    throw new ImportError([{ file: dir, line: 0, message: `holds none of ${BUNDLE_FILE_NAMES.join(', ')}` }]);
  }
  return present;
}

/**
 * Imports a bundle folder (DESIGN §5) whole or not at all. Rows stream into temporary tables, are
 * checked row by row and then as a whole, and only a bundle without a single problem is applied;
 * otherwise {@link ImportError} lists every `file:line` and nothing is written. Importing the same
 * bundle twice changes nothing.
 *
 * Reading and checking take no write lock, so a running server keeps charging meanwhile (on
 * SQLite a long write transaction would stall every other writer); only applying the checked
 * stage is one write transaction. Should another import commit in between, this one is refused
 * rather than applied on checks that no longer hold. Memory stays flat whatever the bundle's size.
 * Long statements are expected: the connection must not carry a short statement timeout.
 */
export async function importBundle(db: Kysely<Database>, dir: string, options: ImportOptions = {}): Promise<ImportSummary> {
  const present = bundleFiles(dir);
  // One connection throughout: temporary tables belong to the connection that made them.
  return db.connection().execute((conn) => withBulkSession(conn, () => stageCheckApply(conn, dir, present, options)));
}

async function stageCheckApply(
  conn: Kysely<Database>,
  dir: string,
  present: BundleFile[],
  options: ImportOptions,
): Promise<ImportSummary> {
  try {
    const startVersion = (await readVersions(conn)).data;
    const rates = await loadRates(conn);
    const previousRates = new Map(rates);
    const stage = await createStage(conn);
    await options.onPhase?.('reading');
    const issues: ImportIssue[] = [];
    const counts = { 'fx_rates.csv': 0, 'companies.csv': 0, 'listings.csv': 0, 'documents.csv': 0, 'revenues.csv': 0 };
    const sizes = present.map((file) => statSync(join(dir, file)).size);
    const totalBytes = sizes.reduce((a, b) => a + b, 0);
    let bytesBefore = 0;
    for (const [i, file] of present.entries()) {
      const progress = (rows: number, bytesRead: number) =>
        options.onProgress?.({ file, rows, bytesRead: bytesBefore + bytesRead, totalBytes });
      counts[file] = await stageFile(stage, join(dir, file), file, rates, issues, progress);
      bytesBefore += sizes[i] ?? 0;
      if (issues.length >= MAX_ISSUES) break;
    }
    if (issues.length === 0) {
      await options.onPhase?.('checking');
      await stageRates(stage, rates);
      await indexStage(stage);
      issues.push(...(await checkStage(stage)));
    }
    if (issues.length > 0) throw new ImportError(sortIssues(issues).slice(0, MAX_ISSUES));
    await options.onPhase?.('applying');
    const renormalized = await conn.transaction().execute(async (trx) => {
      // A write first, so SQLite takes the write lock now rather than failing to upgrade later.
      await bumpVersion(trx, 'data');
      if ((await readVersions(trx)).data !== startVersion + 1) {
        throw new ImportError([
          { file: dir, line: 0, message: 'another import changed the data while this one was checked: import it again' },
        ]);
      }
      await applyStage(trx.withTables<StageTables>());
      return renormalize(trx, previousRates, rates);
    });
    return {
      fx_rates: counts['fx_rates.csv'],
      companies: counts['companies.csv'],
      listings: counts['listings.csv'],
      documents: counts['documents.csv'],
      revenues: counts['revenues.csv'],
      renormalized,
    };
  } finally {
    await dropStage(conn);
  }
}

/** The rates figures were converted with, so applying them stores each figure's rate beside it. */
async function stageRates(db: StageDb, rates: Rates): Promise<void> {
  const writer = new StageWriter(db, 'stage_rates');
  for (const [key, rate] of rates) {
    const [currency = '', year = ''] = key.split(':');
    await writer.add([currency, Number(year), rate.usdPerUnit, rate.source, 0]);
  }
  await writer.flush();
}

function sortIssues(issues: ImportIssue[]): ImportIssue[] {
  const order = (file: string) => BUNDLE_FILE_NAMES.indexOf(file as BundleFile);
  return issues.sort((a, b) => order(a.file) - order(b.file) || a.line - b.line);
}

/** Streams one file into its stage table; after the first problem it only validates, to report the rest. */
async function stageFile(
  db: StageDb,
  path: string,
  file: BundleFile,
  rates: Rates,
  issues: ImportIssue[],
  progress: (rows: number, bytesRead: number) => void,
): Promise<number> {
  const writer = new StageWriter(db, STAGE_TABLE[file]);
  let rows = 0;
  reading: for await (const batch of readCsv(path, file, BUNDLE_FILES[file], issues, OPTIONAL_COLUMNS[file])) {
    for (const { line, values } of batch.rows) {
      rows++;
      const staged = stageRow(file, values, rates);
      if (!staged.ok) {
        for (const message of staged.messages) issues.push({ file, line, message });
        if (issues.length >= MAX_ISSUES) break reading;
        continue;
      }
      if (issues.length > 0) continue;
      staged.row.push(line);
      await writer.add(staged.row);
    }
    progress(rows, batch.bytesRead);
  }
  if (issues.length === 0) await writer.flush();
  return rows;
}
