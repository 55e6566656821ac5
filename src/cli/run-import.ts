import { Presets, SingleBar } from 'cli-progress';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { DatasetBundle } from '../ingest/core/dataset-bundle.js';
import { type ImportPhase, type ImportSummary, importBundle } from '../ingest/sources/bundle/import-bundle.js';

const MIB = 1024 * 1024;
const PHASE: Record<ImportPhase, string> = {
  reading: 'reading',
  checking: 'checking the whole bundle',
  applying: 'writing to the database',
};

/**
 * Imports a bundle, with a progress bar on stderr when it is a terminal: the share of the
 * bundle's bytes read, the file and its rows, then the checking and writing phases.
 */
export async function runImport(db: Kysely<Database>, dir: string, bundles: readonly DatasetBundle[]): Promise<ImportSummary> {
  if (!process.stderr.isTTY) return importBundle(db, dir, bundles);
  const bar = new SingleBar(
    {
      format: '{bar} {percentage}% | {mib} MiB | {phase} {file} {rows}',
      stream: process.stderr,
      hideCursor: true,
    },
    Presets.shades_classic,
  );
  bar.start(1, 0, { phase: PHASE.reading, file: '', rows: '', mib: '0' });
  try {
    return await importBundle(db, dir, bundles, {
      onProgress: ({ file, rows, bytesRead, totalBytes }) => {
        bar.setTotal(Math.max(totalBytes, 1));
        bar.update(bytesRead, { file, rows: `${rows} rows`, mib: (bytesRead / MIB).toFixed(1) });
      },
      onPhase: (phase) => {
        if (phase !== 'reading') bar.update(bar.getTotal(), { phase: PHASE[phase], file: '', rows: '' });
      },
    });
  } finally {
    bar.stop();
  }
}
