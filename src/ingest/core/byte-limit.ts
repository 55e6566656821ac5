import { ImportError } from './issues.js';

/** A size past which an input is refused, and the setting that raises it (named in the refusal). */
export interface ByteLimit {
  readonly bytes: number;
  readonly setting: string;
}

const UNITS: ReadonlyArray<[string, number]> = [
  ['GiB', 1024 ** 3],
  ['MiB', 1024 ** 2],
  ['KiB', 1024],
];

/** `268435456` → `256 MiB`; `1610612736` → `1.5 GiB`; small sizes in bytes. */
export function formatBytes(bytes: number): string {
  for (const [unit, size] of UNITS) {
    if (bytes < size) continue;
    const value = bytes / size;
    return `${Number.isInteger(value) ? value : value.toFixed(1)} ${unit}`;
  }
  return `${bytes} bytes`;
}

/** The refusal of `source` for being larger than `limit` (`size` when known up front). */
export function tooLarge(source: string, limit: ByteLimit, size?: number, line = 0): ImportError {
  const what = size === undefined ? 'is larger than' : `is ${formatBytes(size)}, over`;
  return new ImportError([
    { file: source, line, message: `${what} the limit of ${formatBytes(limit.bytes)} (${limit.setting})` },
  ]);
}

/**
 * The chunks of `stream`, refused with {@link tooLarge} as soon as their bytes pass `limit`: a
 * size declared up front (a zip directory, a file's length) can be wrong or change while the
 * input is read, so what is read is counted too. Stopping early destroys the stream.
 */
export async function* limitedChunks(stream: AsyncIterable<Buffer>, limit: ByteLimit, source: string): AsyncGenerator<Buffer> {
  let total = 0;
  for await (const chunk of stream) {
    total += chunk.length;
    if (total > limit.bytes) throw tooLarge(source, limit);
    yield chunk;
  }
}
