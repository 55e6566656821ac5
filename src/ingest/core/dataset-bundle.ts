import type { Kysely } from 'kysely';
import type { Database, FigureTableName } from '../../db/schema.js';
import type { Checked } from './field-checks.js';
import type { ImportIssue } from './issues.js';
import type { Rates } from './rates.js';

/**
 * A dataset's own bundle file (`revenues.csv`, `ghg_emissions.csv`…), beside the core files
 * (FX rates, companies, listings, documents). The import streams it into the dataset's temporary
 * stage table after the core files, checks it with the rest, and applies it in the same
 * transaction: a bundle is still whole or nothing.
 */
export interface DatasetBundle {
  readonly file: string;
  /**
   * Counted and written even when empty: import and export summaries always carry its count (0
   * without the file) and export always writes the file, header only if need be. For a file
   * bundles have always held (`revenues.csv`), whose count and file scripts expect; a newer
   * dataset's file appears only with figures, so a bundle without them stays as it was.
   */
  readonly alwaysListed?: boolean;
  /** Columns the header must hold. */
  readonly columns: readonly string[];
  /** Columns the header may also hold. */
  readonly optionalColumns: readonly string[];
  /** The temporary table rows are staged into, and its columns (`line` last). */
  readonly stageTable: string;
  readonly stageColumns: readonly string[];
  /** Creates the (empty) stage table on the import's connection. */
  createStage(db: Kysely<Database>): Promise<void>;
  /**
   * Checks one row: its stage values (in `stageColumns` order, without `line`) or what is wrong.
   * `rates` are the FX rates known when it is read (the database's and the bundle's own), for a
   * money figure's USD value.
   */
  stageRow(values: Readonly<Record<string, string>>, rates: Rates): Checked<unknown[]>;
  /** Whole-bundle checks (unknown company or document, repeated figures), run after the core stage is indexed. */
  check(db: Kysely<Database>): Promise<ImportIssue[]>;
  /**
   * The money figure table the file fills, if it does (columns as `revenue_points`): its USD
   * values are recomputed, as revenues' are, when an import changes an FX rate.
   */
  readonly figureTable?: FigureTableName;
  /** The step its USD values are rounded to when recomputed: 100 for a per-share table (in millionths, to 4 decimals). */
  readonly usdStep?: number;
  /** Writes the checked stage, keyed by stable ids: the same bundle twice changes nothing. */
  apply(db: Kysely<Database>): Promise<void>;
  /** Every stored row, as the file's lines (`columns` then `optionalColumns`), in a stable order. */
  exportRows(db: Kysely<Database>): AsyncIterable<ReadonlyArray<string | number | null>>;
}
