import { lstatSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { DatasetBundle } from '../../core/dataset-bundle.js';
import type { Checked } from '../../core/field-checks.js';
import { inputKind } from '../../core/regular-file.js';
import { type StageDb, StageWriter } from '../../core/stage.js';
import { type ImportPhase, MAX_ISSUES, stagedWrite } from '../../core/staged-write.js';
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

/** Rows read of each core file. */
interface CoreCounts {
  fx_rates: number;
  companies: number;
  listings: number;
  documents: number;
}

export interface ImportSummary extends CoreCounts {
  /** Data points already stored whose USD value moved because their FX rate changed. */
  renormalized: number;
  /**
   * Rows of each dataset file present (e.g. `revenues`, `ghg_emissions`), by file name without
   * `.csv`; a file {@link DatasetBundle.alwaysListed} is counted (0) even when absent.
   */
  [datasetFile: string]: number;
}

/** Every file a bundle may hold: the core ones, then the datasets' own in the order given. */
function knownFiles(bundles: readonly DatasetBundle[]): readonly string[] {
  return [...BUNDLE_FILE_NAMES, ...bundles.map((b) => b.file)];
}

export type { ImportPhase };

/** How far reading has come: bytes of all the bundle's files, and rows of the file being read. */
export interface ImportProgress {
  file: string;
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

/** Whether a folder holds an entry of this name, of any kind (a dangling symlink too). */
function holds(dir: string, name: string): boolean {
  try {
    lstatSync(join(dir, name));
    return true;
  } catch {
    return false;
  }
}

function bundleFiles(dir: string, bundles: readonly DatasetBundle[]): { present: BundleFile[]; datasets: DatasetBundle[] } {
  const KNOWN_FILES = knownFiles(bundles);
  if (inputKind(dir) !== 'folder') throw new ImportError([{ file: dir, line: 0, message: 'is not a folder' }]);
  // A misspelt file name would otherwise be skipped without a word.
  const strangers = readdirSync(dir).filter((f) => f.toLowerCase().endsWith('.csv') && !KNOWN_FILES.includes(f));
  if (strangers.length > 0) {
    throw new ImportError(
      strangers.sort().map((f) => ({ file: f, line: 0, message: `is not a bundle file (${KNOWN_FILES.join(', ')})` })),
    );
  }
  const present = BUNDLE_FILE_NAMES.filter((f) => holds(dir, f));
  const datasets = bundles.filter((b) => holds(dir, b.file));
  if (present.length === 0 && datasets.length === 0) {
    throw new ImportError([{ file: dir, line: 0, message: `holds none of ${KNOWN_FILES.join(', ')}` }]);
  }
  // Only regular files are read (a symlink to one is fine): a FIFO or a device is refused up front.
  for (const f of [...present, ...datasets.map((b) => b.file)]) {
    if (inputKind(join(dir, f)) !== 'file')
      throw new ImportError([{ file: join(dir, f), line: 0, message: 'is not a regular file (a folder)' }]);
  }
  return { present, datasets };
}

/**
 * Imports a bundle folder (design §5) whole or not at all. Rows stream into temporary tables, are
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
export async function importBundle(
  db: Kysely<Database>,
  dir: string,
  bundles: readonly DatasetBundle[],
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const { present, datasets } = bundleFiles(dir, bundles);
  const known = knownFiles(bundles);
  return stagedWrite(db, dir, (stage, rates, conn) => stageFiles(stage, conn, dir, present, datasets, bundles, rates, options), {
    onPhase: options.onPhase,
    sortIssues: (issues) => sortIssues(issues, known),
    rerun: 'import it again',
    extraStages: bundles,
  });
}

async function stageFiles(
  stage: StageDb,
  conn: Kysely<Database>,
  dir: string,
  present: BundleFile[],
  datasets: DatasetBundle[],
  listed: readonly DatasetBundle[],
  rates: Rates,
  options: ImportOptions,
): Promise<{ issues: ImportIssue[]; result: CoreCounts & Record<string, number> }> {
  const issues: ImportIssue[] = [];
  const counts = { 'fx_rates.csv': 0, 'companies.csv': 0, 'listings.csv': 0, 'documents.csv': 0 };
  const stages: FileStage[] = [
    ...present.map(
      (file): FileStage => ({
        file,
        columns: BUNDLE_FILES[file],
        optional: OPTIONAL_COLUMNS[file],
        stageRow: (values) => stageRow(file, values, rates),
        writer: new StageWriter(stage, STAGE_TABLE[file]),
      }),
    ),
    ...datasets.map(
      (b): FileStage => ({
        file: b.file,
        columns: b.columns,
        optional: b.optionalColumns,
        stageRow: (values) => b.stageRow(values, rates),
        writer: new StageWriter(conn, b.stageTable, b.stageColumns),
      }),
    ),
  ];
  const sizes = stages.map((f) => statSync(join(dir, f.file)).size);
  const totalBytes = sizes.reduce((a, b) => a + b, 0);
  const datasetCounts: Record<string, number> = Object.fromEntries(
    listed.filter((b) => b.alwaysListed === true).map((b) => [countKey(b.file), 0]),
  );
  let bytesBefore = 0;
  for (const [i, f] of stages.entries()) {
    if (i > 0 && issues.length >= MAX_ISSUES) break;
    const progress = (rows: number, bytesRead: number) =>
      options.onProgress?.({ file: f.file, rows, bytesRead: bytesBefore + bytesRead, totalBytes });
    const rows = await stageFile(join(dir, f.file), f, issues, progress);
    if (f.file in counts) counts[f.file as keyof typeof counts] = rows;
    else datasetCounts[countKey(f.file)] = rows;
    bytesBefore += sizes[i] ?? 0;
  }
  return {
    issues,
    result: {
      fx_rates: counts['fx_rates.csv'],
      companies: counts['companies.csv'],
      listings: counts['listings.csv'],
      documents: counts['documents.csv'],
      ...datasetCounts,
    },
  };
}

/** A dataset file's key in a summary: its name without `.csv`. */
const countKey = (file: string) => file.replace(/\.csv$/, '');

function sortIssues(issues: ImportIssue[], known: readonly string[]): ImportIssue[] {
  const order = (file: string) => known.indexOf(file);
  return issues.sort((a, b) => order(a.file) - order(b.file) || a.line - b.line);
}

/** Where one bundle file's rows go: the file's columns, its row check, and the stage table's writer. */
interface FileStage {
  file: string;
  columns: readonly string[];
  optional: readonly string[];
  stageRow(values: Readonly<Record<string, string>>): Checked<unknown[]>;
  writer: StageWriter;
}

/**
 * Streams one bundle file into its stage table, the same way for a core file and a dataset's own;
 * after the first problem it only validates, to report the rest.
 */
async function stageFile(
  path: string,
  f: FileStage,
  issues: ImportIssue[],
  progress: (rows: number, bytesRead: number) => void,
): Promise<number> {
  let rows = 0;
  reading: for await (const batch of readCsv(path, f.file, f.columns, issues, f.optional)) {
    for (const { line, values } of batch.rows) {
      rows++;
      const staged = f.stageRow(values);
      if (!staged.ok) {
        for (const message of staged.messages) issues.push({ file: f.file, line, message });
        if (issues.length >= MAX_ISSUES) break reading;
        continue;
      }
      if (issues.length > 0) continue;
      staged.row.push(line);
      await f.writer.add(staged.row);
    }
    progress(rows, batch.bytesRead);
  }
  if (issues.length === 0) await f.writer.flush();
  return rows;
}
