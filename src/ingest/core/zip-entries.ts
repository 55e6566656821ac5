import { closeSync } from 'node:fs';
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { type ByteLimit, limitedChunks, tooLarge } from './byte-limit.js';
import { openRegularFile } from './regular-file.js';

export interface ZipEntry {
  name: string;
  /** The inflated size the zip's directory declares (yauzl holds the entry to it while reading). */
  size: number;
  /** Streams the entry's inflated bytes; read it to the end before asking for the next entry. */
  open(): Promise<Readable>;
}

/**
 * The entries of a zip file, one at a time, read from its central directory: an archive of any
 * size (SEC's bulk companyfacts.zip is over a gigabyte) is never unpacked whole, in memory or on
 * disk. Sizes are checked against the directory, so a damaged entry fails rather than reads short.
 */
export async function* zipEntries(path: string): AsyncGenerator<ZipEntry> {
  const { fd } = openRegularFile(path);
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromFd(fd, { lazyEntries: true, autoClose: false, validateEntrySizes: true }, (error, z) =>
      error === null && z !== undefined ? resolve(z) : reject(error ?? new Error('cannot open')),
    ),
  ).catch((error: unknown) => {
    // Once opened, the zip file owns the descriptor and closes it; until then it is ours.
    closeSync(fd);
    throw error;
  });
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
        size: entry.uncompressedSize,
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

/**
 * The inflated bytes of an entry, refused unread when its directory declares more than `limit`
 * (a zip bomb of a gigabyte in a megabyte costs nothing), and while reading once they pass it.
 */
export async function* entryChunks(entry: ZipEntry, limit: ByteLimit, source: string): AsyncGenerator<Buffer> {
  if (entry.size > limit.bytes) throw tooLarge(source, limit, entry.size);
  yield* limitedChunks((await entry.open()) as AsyncIterable<Buffer>, limit, source);
}
