import type { Kysely } from 'kysely';
import type { ConfigSection, Env } from '../../config.js';
import type { Database } from '../../db/schema.js';
import type { IngestCommand } from '../core/ingest-command.js';
import type { DemoPart } from '../demo/demo-part.js';
import type { FetchCounts } from '../sync/source-fetcher.js';
import type { SourceSyncOptions } from '../sync/sync-run.js';

/**
 * A source of data (design §15): one folder under `src/ingest/sources/` exports one of these, and
 * the composition root lists them (`ingest/registry.ts`) and hands the list to the CLI and the
 * config, as Kysely's core is handed a dialect. The CLI builds `ingest NAME` and `sync NAME` from
 * the list, the config has each source read its own variables, the demo builder runs each one's
 * demo part; nothing outside the folder names a source. How a filing of the source becomes a document, and what a figure's trace page shows of
 * it, the folder's readers say with every fact (`ingest/filings/source.ts`): those go with the
 * figure when it is written, so the pages need no list.
 */
export interface Source extends ConfigSection<SourceSettings> {
  /** The source's name: its `sync NAME`, and each of its documents' `source` (never renamed once data is stored). */
  readonly name: string;
  /** Its `bin/corpdata ingest NAME` commands, each reading one kind of input of the source. */
  readonly ingest: readonly IngestCommand[];
  /** Its `bin/corpdata sync NAME`, when it has an API to keep current from. */
  readonly sync?: SyncCommand;
  /**
   * Its part of the demo bundle, when the reference data has files of it: loaded on use
   * (`await import(…)`), like its readers, so that only the demo builder pays for it.
   */
  readonly demo?: () => Promise<DemoPart>;
  /**
   * Reads the source's own variables (`CORPDATA_{NAME}_…`) when the config is loaded, refusing a
   * malformed one (`ConfigError` naming it); what depends on them is in the answer.
   */
  configure(env: Env): SourceSettings;
}

/** One option of a `sync NAME` command, as the CLI declares it: `--since <date>`, `--dry-run`. */
export interface SyncOption {
  readonly flags: string;
  readonly description: string;
}

/** A source's `sync NAME`: its help and options; what it does is in {@link SourceSettings.sync}. */
export interface SyncCommand {
  readonly description: string;
  readonly options: readonly SyncOption[];
}

/** The options of one `sync NAME` run as the command line gave them (`--dry-run` is `dryRun: true`). */
export type SyncCommandOptions = Readonly<Record<string, unknown>>;

/** What a source is once its variables are read. */
export interface SourceSettings {
  /**
   * Makes a run of its `sync` from the command's options: checks them and the settings before
   * anything is opened or sent (rejecting with an `Error` whose message is the CLI's one line) and
   * says how the run asks its host; absent when the source has no sync. It loads the sync's code
   * on use (`await import(…)`), so that a source does not slow the start of every other command.
   */
  readonly sync?: (options: SyncCommandOptions) => Promise<SyncJob>;
}

/** One sync of a source, ready to run inside the shared frame (`withSyncRun`: lock, fetcher, download folder). */
export interface SyncJob {
  /** Who the requests say they are (`User-Agent`). */
  readonly userAgent: string;
  /** The source's pace: at most this many requests a second. */
  readonly requestsPerSecond: number;
  /** The source's configured bases: nothing is fetched off their origins, redirects included. */
  readonly bases: readonly string[];
  /** Ask what changed; fetch and write nothing. */
  readonly dryRun: boolean;
  /** Fetches and ingests; resolves to what the command prints (counts of requests and ingests). */
  run(db: Kysely<Database>, common: SourceSyncOptions): Promise<SyncSummary>;
}

/** What a sync prints: its request counts (which decide its exit when every request failed), and its own counts. */
export interface SyncSummary {
  readonly requests: FetchCounts;
}

/** A command-line flag that is on (`--dry-run`). */
export const flag = (options: SyncCommandOptions, name: string): boolean => options[name] === true;

/** A command-line option's text (`--since 2024-01-01`); undefined when not given. */
export function optionText(options: SyncCommandOptions, name: string): string | undefined {
  const value = options[name];
  return typeof value === 'string' ? value : undefined;
}
