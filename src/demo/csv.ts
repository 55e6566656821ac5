import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CsvRecordParser } from '../ingest/sources/bundle/csv-records.js';

/** A source row with its line number in the source file (the header is line 1). */
export interface SourceRow {
  line: number;
  file: string;
  get(column: string): string;
  /** The field at a position, for headers that repeat a column name. */
  at(index: number): string;
}

/**
 * Reads a whole source CSV (they are small) into rows that know their file and line; `text`, when
 * given, is read instead of the file (a file whose header is not its first line).
 */
export function readSource(dir: string, file: string, text?: string): SourceRow[] {
  const parser = new CsvRecordParser();
  const records = [...parser.push(text ?? readFileSync(join(dir, file), 'utf8')), ...parser.end()];
  const [header, ...rest] = records;
  const columns = header?.fields ?? [];
  return rest.map(({ line, fields }) => ({
    line,
    file,
    get: (column: string) => {
      const i = columns.indexOf(column);
      if (i < 0) throw new Error(`${file} has no column ${column}`);
      return (fields[i] ?? '').trim();
    },
    at: (index: number) => (fields[index] ?? '').trim(),
  }));
}

function field(value: string): string {
  return /[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Writes a CSV file: header, rows, `\n` line ends, quoting only where RFC 4180 needs it. */
export function writeCsv(path: string, columns: readonly string[], rows: ReadonlyArray<readonly string[]>): void {
  const lines = [columns, ...rows].map((r) => r.map(field).join(','));
  writeFileSync(path, `${lines.join('\n')}\n`);
}
