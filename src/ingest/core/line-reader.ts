import { formatBytes } from './byte-limit.js';
import { ImportError } from './issues.js';

const LF = 10;
const CR = 13;

/** A line's text without its line break (LF, or CRLF). */
function text(bytes: Buffer, start: number, end: number): string {
  return bytes.toString('utf8', start, end > start && bytes[end - 1] === CR ? end - 1 : end);
}

/**
 * The lines of a byte stream, a chunk's worth at a time, in order. Unlike `readline`, which holds
 * a line however long it grows (and fails with a RangeError past V8's largest string), a line of
 * more than `maxLineBytes` (its break not counted) is refused as soon as that many bytes have come
 * without a break: {@link ImportError} naming `source` and the line. Lines are split on bytes, so
 * a UTF-8 character is never cut; a last line without a break is a line, an empty input has none.
 */
export async function* readLines(
  chunks: AsyncIterable<Buffer>,
  maxLineBytes: number,
  source: string,
  setting: string,
): AsyncGenerator<string[]> {
  let line = 0;
  let batch: string[] = [];
  /** The start of a line that the chunks so far have not ended. */
  let carry: Buffer | undefined;
  const refuse = (): ImportError =>
    new ImportError([
      { file: source, line: line + 1, message: `is longer than the limit of ${formatBytes(maxLineBytes)} (${setting})` },
    ]);
  /** Whether a line of `bytes` ending with byte `last` is too long: its CR (of CRLF) does not count. */
  const tooLong = (bytes: number, last: number | undefined) => bytes - (last === CR ? 1 : 0) > maxLineBytes;
  /** A line not ended yet is too long once it cannot be ended by a CRLF within the limit. */
  const max = maxLineBytes + 1;
  for await (const chunk of chunks) {
    let start = 0;
    let lf = chunk.indexOf(LF);
    if (carry !== undefined) {
      if (lf === -1) {
        if (carry.length + chunk.length > max) throw refuse();
        carry = Buffer.concat([carry, chunk]);
        continue;
      }
      if (tooLong(carry.length + lf, lf > 0 ? chunk[lf - 1] : carry[carry.length - 1])) throw refuse();
      const whole = Buffer.concat([carry, chunk.subarray(0, lf)]);
      batch.push(text(whole, 0, whole.length));
      line++;
      carry = undefined;
      start = lf + 1;
      lf = chunk.indexOf(LF, start);
    }
    while (lf !== -1) {
      if (tooLong(lf - start, chunk[lf - 1])) {
        // The lines before it come first, so that a fault of theirs is the one reported.
        if (batch.length > 0) yield batch;
        throw refuse();
      }
      batch.push(text(chunk, start, lf));
      line++;
      start = lf + 1;
      lf = chunk.indexOf(LF, start);
    }
    if (start < chunk.length) {
      if (chunk.length - start > max) {
        if (batch.length > 0) yield batch;
        throw refuse();
      }
      // A copy: a slice would keep the whole chunk alive.
      carry = Buffer.from(chunk.subarray(start));
    }
    if (batch.length > 0) {
      yield batch;
      batch = [];
    }
  }
  if (carry !== undefined) {
    if (tooLong(carry.length, carry[carry.length - 1])) throw refuse();
    yield [text(carry, 0, carry.length)];
  }
}
