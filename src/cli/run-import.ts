import { SingleBar } from 'cli-progress';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { type ImportSummary, importBundle } from '../ingest/import-bundle.js';

/** Imports a bundle, with a progress line on stderr when it is a terminal. */
export async function runImport(db: Kysely<Database>, dir: string): Promise<ImportSummary> {
  if (!process.stderr.isTTY) return importBundle(db, dir);
  const bar = new SingleBar({ format: 'importing {file} {value} rows', stream: process.stderr, noTTYOutput: false });
  bar.start(0, 0, { file: '' });
  try {
    return await importBundle(db, dir, { onProgress: (file, rows) => bar.update(rows, { file }) });
  } finally {
    bar.stop();
  }
}
