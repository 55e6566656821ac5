import type { IngestLimits } from '../../../config.js';
import { type JsonFileReader, readJsonDocuments } from '../../core/json-documents.js';

/**
 * A `.json` file worth reading in a folder or zip: not a report package's own metadata
 * (`META-INF/reportPackage.json`), which describes the package rather than holding a report.
 */
const isJsonInput = (path: string): boolean => /\.json$/i.test(path) && !/(^|\/)META-INF\//i.test(path);

/**
 * JSON documents as the ESEF ingests take them: files, folders of `.json` files and zips of them
 * (see {@link readJsonDocuments}); `what` names the documents expected in a refusal.
 */
export function readJsonInputs<T>(
  paths: readonly string[],
  limits: IngestLimits,
  what: string,
  read: JsonFileReader<T>,
): AsyncGenerator<T> {
  return readJsonDocuments(paths, limits, { accepts: isJsonInput, none: (where) => `holds no .json ${where} (${what})` }, read);
}
