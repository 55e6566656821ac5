import type { IngestLimits } from '../../../config.js';
import { type JsonFileReader, readJsonDocuments } from '../../core/json-documents.js';

/**
 * A `.json` file worth reading in a folder or zip: not a report package's own metadata
 * (`META-INF/reportPackage.json`), which describes the package rather than holding a report.
 */
const isJsonInput = (path: string): boolean => /\.json$/i.test(path) && !/(^|\/)META-INF\//i.test(path);

/**
 * JSON documents as the ESEF ingests take them: files, folders of `.json` files (subfolders
 * included: a download of reports keeps one folder per filer or country) and zips of them (see
 * {@link readJsonDocuments}); `what` names the documents expected in a refusal. `passedOver` is
 * told of each other file in a folder.
 */
export function readJsonInputs<T>(
  paths: readonly string[],
  limits: IngestLimits,
  what: string,
  read: JsonFileReader<T>,
  passedOver?: (path: string) => void,
): AsyncGenerator<T> {
  return readJsonDocuments(
    paths,
    limits,
    {
      accepts: isJsonInput,
      none: (where) => `holds no .json ${where} (${what})`,
      recursive: true,
      ...(passedOver === undefined ? {} : { passedOver }),
    },
    read,
  );
}
