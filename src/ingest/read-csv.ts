import { createReadStream } from 'node:fs';
import { pipeline, Transform, type TransformCallback } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import type { ImportIssue } from './bundle-files.js';

export interface CsvRow {
  line: number;
  values: Record<string, string>;
}

/** Passes bytes through, failing at the first invalid UTF-8 sequence with its line number. */
class Utf8Check extends Transform {
  readonly #decoder = new TextDecoder('utf-8', { fatal: true });
  #line = 1;

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    try {
      this.#decoder.decode(chunk, { stream: true });
    } catch {
      done(new EncodingError(this.#line + countLinesUntilInvalid(chunk)));
      return;
    }
    for (const byte of chunk) if (byte === 10) this.#line++;
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    try {
      this.#decoder.decode();
      done();
    } catch {
      done(new EncodingError(this.#line));
    }
  }
}

function countLinesUntilInvalid(chunk: Buffer): number {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let lines = 0;
  for (let i = 0; i < chunk.length; i++) {
    try {
      decoder.decode(chunk.subarray(i, i + 1), { stream: true });
    } catch {
      return lines;
    }
    if (chunk[i] === 10) lines++;
  }
  return lines;
}

class EncodingError extends Error {
  constructor(readonly line: number) {
    super('not valid UTF-8');
  }
}

/**
 * Streams the rows of one bundle CSV file. The header must hold exactly `columns` (any order; a BOM
 * is fine); problems with the header, quoting or encoding are pushed to `issues` and end the file.
 */
export async function* readCsv(
  path: string,
  file: string,
  columns: readonly string[],
  issues: ImportIssue[],
): AsyncGenerator<CsvRow> {
  const parser = parse({ bom: true, info: true, relax_column_count: true, skip_empty_lines: true });
  // pipeline, not pipe: an encoding error must reach the parser, or iterating it would wait forever.
  pipeline(createReadStream(path), new Utf8Check(), parser, () => undefined);
  let header: string[] | undefined;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      if (header === undefined) {
        header = record.map((h) => h.trim());
        const missing = columns.filter((c) => !header?.includes(c));
        const extra = header.filter((h) => !columns.includes(h));
        const repeated = header.filter((h, i) => header?.indexOf(h) !== i);
        if (missing.length > 0) issues.push({ file, line: 1, message: `missing column(s) ${missing.join(', ')}` });
        if (extra.length > 0) issues.push({ file, line: 1, message: `unexpected column(s) ${extra.join(', ')}` });
        if (repeated.length > 0) issues.push({ file, line: 1, message: `repeated column(s) ${repeated.join(', ')}` });
        if (missing.length + extra.length + repeated.length > 0) return;
        continue;
      }
      if (record.length !== header.length) {
        issues.push({ file, line: info.lines, message: `has ${record.length} fields, the header has ${header.length}` });
        continue;
      }
      const values: Record<string, string> = {};
      header.forEach((h, i) => {
        values[h] = record[i] ?? '';
      });
      yield { line: info.lines, values };
    }
    if (header === undefined) issues.push({ file, line: 1, message: 'is empty: a header row is required' });
  } catch (error) {
    if (error instanceof EncodingError) issues.push({ file, line: error.line, message: 'is not valid UTF-8' });
    else if (error instanceof CsvError) {
      const line = (error as CsvError & { lines?: number }).lines ?? 0;
      issues.push({ file, line, message: `malformed CSV: ${error.message.replace(/^Invalid [^:]*: /, '')}` });
    } else throw error;
  }
}
