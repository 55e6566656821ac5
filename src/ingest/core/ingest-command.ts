import type { Kysely } from 'kysely';
import type { IngestLimits } from '../../config.js';
import type { Database } from '../../db/schema.js';
import type { FigureSpec } from './figure-spec.js';

/** What `bin/corpdata ingest NAME PATH...` hands a source's command. */
export interface IngestRun {
  db: Kysely<Database>;
  paths: string[];
  limits: IngestLimits;
  /** The datasets filings fill (composed by the CLI): every filings source fills each. */
  specs: readonly FigureSpec[];
  /**
   * A progress callback for stderr: `n` of `what` (filers, pages) read so far; called with `done`
   * once all is read, so the last line shows the count the summary gives under the same word.
   */
  progress(what: string): (n: number, done?: boolean) => void;
}

/**
 * One `bin/corpdata ingest NAME` (design §10, §14, §15): a source folder declares its commands in
 * its `Source` and the registry (`ingest/registry.ts`) lists the sources; the CLI builds its help
 * and dispatch from that list. `run` should load its readers on use (`await import(…)`), so that a source does not slow
 * the start of every other command.
 */
export interface IngestCommand {
  readonly name: string;
  /** What PATH... is, for `--help`: `xBRL-JSON reports from filings.xbrl.org: files, folders, zips`. */
  readonly input: string;
  /** Prints one JSON object: counts of what was added and skipped. */
  run(r: IngestRun): Promise<object>;
}
