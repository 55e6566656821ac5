import type { SourceRow } from './csv.js';

/** Every source row the bundle leaves out or changes, with the reason, in one place. */
export class Report {
  readonly lines: string[] = [];

  drop(row: SourceRow, reason: string): void {
    this.lines.push(`${row.file}:${row.line}: dropped: ${reason}`);
  }

  note(row: SourceRow, what: string): void {
    this.lines.push(`${row.file}:${row.line}: ${what}`);
  }
}
