import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';

function field(value: string): string {
  return /[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Rows are gathered into chunks of about this size: one write per row costs more than the row. */
const CHUNK_CHARS = 64 * 1024;

/** Streams CSV rows to a file with `\n` line ends, quoting only where RFC 4180 needs it. */
export class CsvWriter {
  readonly #out: WriteStream;
  #pending = '';

  constructor(path: string, columns: readonly string[]) {
    this.#out = createWriteStream(path);
    this.#pending = `${columns.map(field).join(',')}\n`;
  }

  /** Writes one row; waits when the stream asks for it, so memory stays flat. */
  async row(values: ReadonlyArray<string | number | null>): Promise<void> {
    let line = '';
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (i > 0) line += ',';
      if (v !== null && v !== undefined) line += typeof v === 'number' ? String(v) : field(v);
    }
    this.#pending += `${line}\n`;
    if (this.#pending.length >= CHUNK_CHARS) await this.#flush();
  }

  async #flush(): Promise<void> {
    const chunk = this.#pending;
    this.#pending = '';
    if (!this.#out.write(chunk)) await once(this.#out, 'drain');
  }

  async close(): Promise<void> {
    if (this.#pending !== '') await this.#flush();
    this.#out.end();
    await once(this.#out, 'finish');
  }
}
