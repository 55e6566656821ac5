import { createReadStream, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { IngestLimits } from '../../config.js';
import { type ByteLimit, limitedChunks, tooLarge } from './byte-limit.js';
import { ImportError } from './issues.js';
import { inputKind, openRegularFile } from './regular-file.js';
import { entryChunks, zipEntries } from './zip-entries.js';

/** The JSON limit of `limits`, with the setting that raises it. */
export const jsonLimit = (limits: IngestLimits): ByteLimit => ({
  bytes: limits.maxJsonBytes,
  setting: 'CORPDATA_INGEST_MAX_JSON_BYTES',
});

/** The bytes of a regular file, refused unread when it is larger than `limit`, and while reading past it. */
export function fileChunks(path: string, limit: ByteLimit): AsyncIterable<Buffer> {
  const { fd, size } = openRegularFile(path);
  const stream = createReadStream(path, { fd, highWaterMark: 1 << 20 });
  if (size > limit.bytes) {
    stream.destroy();
    throw tooLarge(path, limit, size);
  }
  return limitedChunks(stream as AsyncIterable<Buffer>, limit, path);
}

/** Reads one JSON document: its bytes, where it came from (`file` or `zip:entry`), its file name. */
export type JsonFileReader<T> = (chunks: AsyncIterable<Buffer>, source: string, name: string) => Promise<T>;

/** Which files of a folder or entries of a zip a source reads, and how a refusal names what was missing. */
export interface JsonDocumentKind {
  /** A file's path in a folder (relative to it: its name, unless `recursive`), or an entry's path in a zip. */
  accepts(path: string): boolean;
  /** The refusal of a folder (`file`) or zip (`entry`) holding none: `holds no CIK##########.json file`. */
  none(where: 'file' | 'entry'): string;
  /** Whether a folder's subfolders are read too (in path order; a symlink to a folder is not followed). */
  recursive?: boolean;
  /** Told of each file of a folder that `accepts` refused (a stray file beside the documents). */
  passedOver?(path: string): void;
}

/** The files of `folder` (and, `recursive`, of its subfolders), by path relative to it, in name order. */
function folderFiles(folder: string, recursive: boolean, under = ''): string[] {
  const entries = readdirSync(join(folder, under), { withFileTypes: true }).sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
  return entries.flatMap((e) => {
    const path = under === '' ? e.name : join(under, e.name);
    if (!e.isDirectory()) return [path];
    return recursive ? folderFiles(folder, true, path) : [];
  });
}

/**
 * JSON documents as the ingests take them: files, folders of them (in name order, descending into
 * subfolders only when `kind.recursive`) and zips of them read entry by entry, each streamed through `read`, none larger
 * than `limits.maxJsonBytes`. A folder or zip without a document of `kind`, an unreadable zip or
 * entry, stops the read with an {@link ImportError} naming it.
 */
export async function* readJsonDocuments<T>(
  paths: readonly string[],
  limits: IngestLimits,
  kind: JsonDocumentKind,
  read: JsonFileReader<T>,
): AsyncGenerator<T> {
  const limit = jsonLimit(limits);
  for (const path of paths) {
    if (inputKind(path) === 'folder') {
      const names: string[] = [];
      for (const f of folderFiles(path, kind.recursive === true)) {
        if (kind.accepts(f)) names.push(f);
        else kind.passedOver?.(join(path, f));
      }
      if (names.length === 0) throw new ImportError([{ file: path, line: 0, message: kind.none('file') }]);
      for (const f of names) yield await read(fileChunks(join(path, f), limit), join(path, f), basename(f));
    } else if (path.toLowerCase().endsWith('.zip')) {
      yield* readZip(path, limit, kind, read);
    } else {
      yield await read(fileChunks(path, limit), path, basename(path));
    }
  }
}

async function* readZip<T>(path: string, limit: ByteLimit, kind: JsonDocumentKind, read: JsonFileReader<T>): AsyncGenerator<T> {
  let entries = 0;
  try {
    for await (const entry of zipEntries(path)) {
      if (!kind.accepts(entry.name)) continue;
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
  if (entries === 0) throw new ImportError([{ file: path, line: 0, message: kind.none('entry') }]);
}
