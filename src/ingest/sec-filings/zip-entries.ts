import type { Readable } from 'node:stream';
import yauzl from 'yauzl';

export interface ZipEntry {
  name: string;
  /** Streams the entry's inflated bytes; read it to the end before asking for the next entry. */
  open(): Promise<Readable>;
}

/**
 * The entries of a zip file, one at a time, read from its central directory: an archive of any
 * size (SEC's bulk companyfacts.zip is over a gigabyte) is never unpacked whole, in memory or on
 * disk. Sizes are checked against the directory, so a damaged entry fails rather than reads short.
 */
export async function* zipEntries(path: string): AsyncGenerator<ZipEntry> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(path, { lazyEntries: true, autoClose: false, validateEntrySizes: true }, (error, z) =>
      error === null && z !== undefined ? resolve(z) : reject(error ?? new Error('cannot open')),
    ),
  );
  try {
    for (;;) {
      const entry = await new Promise<yauzl.Entry | undefined>((resolve, reject) => {
        const done = () => {
          zip.off('entry', onEntry);
          zip.off('end', onEnd);
          zip.off('error', onError);
        };
        const onEntry = (e: yauzl.Entry) => {
          done();
          resolve(e);
        };
        const onEnd = () => {
          done();
          resolve(undefined);
        };
        const onError = (error: Error) => {
          done();
          reject(error);
        };
        zip.on('entry', onEntry);
        zip.on('end', onEnd);
        zip.on('error', onError);
        zip.readEntry();
      });
      if (entry === undefined) return;
      if (entry.fileName.endsWith('/')) continue;
      yield {
        name: entry.fileName,
        open: () =>
          new Promise<Readable>((resolve, reject) =>
            zip.openReadStream(entry, (error, stream) =>
              error === null && stream !== undefined ? resolve(stream) : reject(error ?? new Error('cannot read')),
            ),
          ),
      };
    }
  } finally {
    zip.close();
  }
}

/** Reads a stream to its end. */
export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}
