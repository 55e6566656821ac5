import { basename } from 'node:path';
import type { IngestLimits } from '../../../config.js';
import { type JsonFileReader, readJsonDocuments } from '../../core/json-documents.js';

/**
 * SEC's per-CIK JSON input as its ingests take it: files, folders of them (the names `files`
 * matches, in name order) and zips of them read entry by entry, each document through `read`,
 * none larger than `limits.maxJsonBytes` (see {@link readJsonDocuments}).
 */
export function readCikJsonInputs<T>(
  paths: readonly string[],
  limits: IngestLimits,
  files: RegExp,
  read: JsonFileReader<T>,
): AsyncGenerator<T> {
  return readJsonDocuments(
    paths,
    limits,
    { accepts: (path) => files.test(basename(path)), none: (where) => `holds no CIK##########.json ${where}` },
    read,
  );
}
