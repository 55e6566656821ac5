import { createReadStream } from 'node:fs';
import { openRegularFile } from '../../core/regular-file.js';
import type { ImportIssue } from './bundle-files.js';
import { CsvRecordParser, CsvSyntaxError } from './csv-records.js';

export interface CsvRow {
  line: number;
  values: Record<string, string>;
}

/** The rows of the chunks read so far, and how many bytes of the file those chunks held. */
export interface CsvBatch {
  rows: CsvRow[];
  bytesRead: number;
}

/** Large reads: fewer, bigger chunks for the parser to go through. */
const CHUNK_BYTES = 1 << 20;

/** The line of the first byte of `chunk` that is not valid UTF-8, counting from `line`. */
function lineOfInvalidByte(chunk: Buffer, line: number): number {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let at = line;
  for (let i = 0; i < chunk.length; i++) {
    try {
      decoder.decode(chunk.subarray(i, i + 1), { stream: true });
    } catch {
      return at;
    }
    if (chunk[i] === 10) at++;
  }
  return at;
}

function countNewlines(chunk: Buffer): number {
  let n = 0;
  for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) n++;
  return n;
}

/**
 * Streams the rows of one bundle CSV file, a chunk's worth at a time. The header must hold
 * exactly `columns` (any order; a BOM is fine), plus any of `optional` (absent ones read as ''); problems with the header, the CSV syntax or the
 * encoding are pushed to `issues` and end the file. Blank lines are skipped (they cost no
 * memory), but a file of nothing else after its header is refused. A row's line is the line it starts on, also
 * when a quoted field spans several lines.
 */
export async function* readCsv(
  path: string,
  file: string,
  columns: readonly string[],
  issues: ImportIssue[],
  optional: readonly string[] = [],
): AsyncGenerator<CsvBatch> {
  const source = createReadStream(path, { fd: openRegularFile(path).fd, highWaterMark: CHUNK_BYTES });
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const parser = new CsvRecordParser();
  let header: string[] | undefined;
  let headerLine = 0;
  let rowCount = 0;
  let bytesLine = 1;

  /** Rows of complete records; false once the header is refused. */
  const rows = (records: ReturnType<CsvRecordParser['push']>): CsvRow[] | false => {
    const out: CsvRow[] = [];
    for (const { line, fields } of records) {
      if (fields.length === 1 && fields[0] === '') continue;
      if (header === undefined) {
        header = fields.map((h) => h.trim());
        headerLine = line;
        if (!checkHeader(header, columns, optional, file, line, issues)) return false;
        continue;
      }
      rowCount++;
      if (fields.length !== header.length) {
        issues.push({ file, line, message: `has ${fields.length} fields, the header has ${header.length}` });
        continue;
      }
      const values: Record<string, string> = {};
      for (const o of optional) values[o] = '';
      for (let i = 0; i < header.length; i++) values[header[i] as string] = fields[i] ?? '';
      out.push({ line, values });
    }
    return out;
  };

  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      let text: string;
      try {
        text = decoder.decode(chunk, { stream: true });
      } catch {
        issues.push({ file, line: lineOfInvalidByte(chunk, bytesLine), message: 'is not valid UTF-8' });
        return;
      }
      bytesLine += countNewlines(chunk);
      const batch = rows(parser.push(text));
      if (batch === false) return;
      if (batch.length > 0) yield { rows: batch, bytesRead: source.bytesRead };
    }
    let tail: string;
    try {
      tail = decoder.decode();
    } catch {
      issues.push({ file, line: bytesLine, message: 'is not valid UTF-8' });
      return;
    }
    const batch = rows([...parser.push(tail), ...parser.end()]);
    if (batch === false) return;
    if (batch.length > 0) yield { rows: batch, bytesRead: source.bytesRead };
    if (header === undefined) issues.push({ file, line: 1, message: 'is empty: a header row is required' });
    else if (rowCount === 0 && parser.line > headerLine + 1) {
      // The parser skipped them without holding any: this is found at the end, in constant memory.
      issues.push({
        file,
        line: headerLine + 1,
        message: `holds only blank lines after its header (${parser.line - headerLine - 1}): a file without rows holds its header alone`,
      });
    }
  } catch (error) {
    if (!(error instanceof CsvSyntaxError)) throw error;
    issues.push({ file, line: error.line, message: `malformed CSV: ${error.message}` });
  } finally {
    // Stopped early (a refused header, too many problems): close the file rather than leave it paused.
    source.destroy();
  }
}

/** What a column's name looks like (`company_id`, `usd_per_unit`, `Scope 1`), short. */
const COLUMN_NAME = /^[A-Za-z0-9_ .-]{1,64}$/;

/**
 * Header names for a message: a misspelt column is named; a header that is no column name at all
 * (a file that is not a bundle file, linked or copied in by mistake) is counted, not echoed.
 */
function shown(names: readonly string[]): string {
  const named = names.filter((h) => COLUMN_NAME.test(h));
  const others = names.length - named.length;
  return [...named, ...(others > 0 ? [`${others} not named like a column`] : [])].join(', ');
}

function checkHeader(
  header: string[],
  columns: readonly string[],
  optional: readonly string[],
  file: string,
  line: number,
  issues: ImportIssue[],
): boolean {
  const missing = columns.filter((c) => !header.includes(c));
  const extra = header.filter((h) => !columns.includes(h) && !optional.includes(h));
  const repeated = header.filter((h, i) => header.indexOf(h) !== i);
  if (missing.length > 0) issues.push({ file, line, message: `missing column(s) ${missing.join(', ')}` });
  if (extra.length > 0) issues.push({ file, line, message: `unexpected column(s) ${shown(extra)}` });
  if (repeated.length > 0) issues.push({ file, line, message: `repeated column(s) ${shown(repeated)}` });
  return missing.length + extra.length + repeated.length === 0;
}
