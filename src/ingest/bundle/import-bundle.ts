import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { type StageDb, StageWriter } from '../core/stage.js';
import { type ImportPhase, MAX_ISSUES, stagedWrite } from '../core/staged-write.js';
import {
  BUNDLE_FILE_NAMES,
  BUNDLE_FILES,
  type BundleFile,
  ImportError,
  type ImportIssue,
  OPTIONAL_COLUMNS,
} from './bundle-files.js';
import { readCsv } from './read-csv.js';
import { type Rates, STAGE_TABLE, stageRow } from './stage-row.js';

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

export type { ImportPhase };

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
  return stagedWrite(db, dir, (stage, rates) => stageFiles(stage, dir, present, rates, options), {
    onPhase: options.onPhase,
    sortIssues,
    rerun: 'import it again',
  });
}

async function stageFiles(
  stage: StageDb,
  dir: string,
  present: BundleFile[],
  rates: Rates,
  options: ImportOptions,
): Promise<{ issues: ImportIssue[]; result: Omit<ImportSummary, 'renormalized'> }> {
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
  return {
    issues,
    result: {
      fx_rates: counts['fx_rates.csv'],
      companies: counts['companies.csv'],
      listings: counts['listings.csv'],
      documents: counts['documents.csv'],
      revenues: counts['revenues.csv'],
    },
  };
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
