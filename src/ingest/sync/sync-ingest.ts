import { ImportError } from '../core/issues.js';

/** A file a sync downloaded: where it lies for the ingest, and the URL the operator knows it by. */
export interface DownloadedFile {
  readonly path: string;
  readonly url: string;
}

/**
 * Ingests a sync's downloads together, or one by one when the ingest refuses them together (an
 * {@link ImportError}: one malformed file refuses its whole batch), so that one bad file costs
 * only itself. Returns the files ingested; each refused file goes to `refused`, which rethrows any
 * failure that is not a refusal (a lost database ends the sync).
 */
export async function ingestEach<F extends DownloadedFile>(
  files: readonly F[],
  ingest: (paths: string[]) => Promise<void>,
  refused: (error: unknown, files: readonly F[]) => void,
): Promise<F[]> {
  if (files.length === 0) return [];
  try {
    await ingest(files.map((f) => f.path));
    return [...files];
  } catch (error) {
    if (!(error instanceof ImportError) || files.length === 1) {
      refused(error, files);
      return [];
    }
  }
  const ingested: F[] = [];
  for (const file of files) {
    try {
      await ingest([file.path]);
      ingested.push(file);
    } catch (error) {
      refused(error, [file]);
    }
  }
  return ingested;
}

/**
 * Logs an ingest's refusal of downloaded files, each named by its URL (the download's temporary
 * name means nothing to the operator), and returns how many were refused; any other failure is
 * rethrown and ends the sync.
 */
export function logRefusal(
  source: string,
  log: (line: string) => void,
  error: unknown,
  files: readonly DownloadedFile[],
): number {
  if (!(error instanceof ImportError)) throw error;
  let message = error.message;
  for (const f of files) message = message.replaceAll(f.path, f.url);
  for (const line of message.split('\n')) log(`sync ${source}: refused ${line}`);
  return files.length;
}
