import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { IngestLimits } from '../../config.js';
import type { ByteLimit } from '../core/byte-limit.js';
import { ImportError } from '../core/issues.js';
import { inputKind } from '../core/regular-file.js';
import { fileChunks, jsonLimit } from '../sec-filings/cik-json-inputs.js';
import { entryChunks, zipEntries } from '../sec-filings/zip-entries.js';

/** Reads one JSON document: its bytes, where it came from (`file` or `zip:entry`), its file name. */
export type JsonFileReader<T> = (chunks: AsyncIterable<Buffer>, source: string, name: string) => Promise<T>;

/**
 * A `.json` file worth reading in a folder or zip: not a report package's own metadata
 * (`META-INF/reportPackage.json`), which describes the package rather than holding a report.
 */
const isJsonInput = (path: string): boolean => /\.json$/i.test(path) && !/(^|\/)META-INF\//i.test(path);

/**
 * JSON documents as the ESEF ingests take them: files, folders of `.json` files (in name order,
 * not descending into subfolders) and zips of them read entry by entry, each streamed through
 * `read`, none larger than `limits.maxJsonBytes`. A folder or zip without a `.json` file, an
 * unreadable zip or entry, stops the read with an {@link ImportError} naming it; `what` names
 * the documents expected in that refusal.
 */
export async function* readJsonInputs<T>(
  paths: readonly string[],
  limits: IngestLimits,
  what: string,
  read: JsonFileReader<T>,
): AsyncGenerator<T> {
  const limit = jsonLimit(limits);
  for (const path of paths) {
    if (inputKind(path) === 'folder') {
      const names = readdirSync(path, { withFileTypes: true })
        .filter((e) => !e.isDirectory() && isJsonInput(e.name))
        .map((e) => e.name)
        .sort();
      if (names.length === 0) throw new ImportError([{ file: path, line: 0, message: `holds no .json file (${what})` }]);
      for (const f of names) yield await read(fileChunks(join(path, f), limit), join(path, f), f);
    } else if (path.toLowerCase().endsWith('.zip')) {
      yield* readZip(path, limit, what, read);
    } else {
      yield await read(fileChunks(path, limit), path, basename(path));
    }
  }
}

async function* readZip<T>(path: string, limit: ByteLimit, what: string, read: JsonFileReader<T>): AsyncGenerator<T> {
  let entries = 0;
  try {
    for await (const entry of zipEntries(path)) {
      if (!isJsonInput(entry.name)) continue;
      const source = `${path}:${entry.name}`;
      let value: T;
      try {
        value = await read(entryChunks(entry, limit, source), source, basename(entry.name));
      } catch (error) {
        if (error instanceof ImportError) throw error;
        throw new ImportError([{ file: source, line: 0, message: `cannot be read from the zip: ${(error as Error).message}` }]);
      }
      entries++;
      yield value;
    }
  } catch (error) {
    if (error instanceof ImportError) throw error;
    throw new ImportError([{ file: path, line: 0, message: `is not a readable zip: ${(error as Error).message}` }]);
  }
  if (entries === 0) throw new ImportError([{ file: path, line: 0, message: `holds no .json entry (${what})` }]);
}
