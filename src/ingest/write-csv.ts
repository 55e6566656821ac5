import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';

function field(value: string): string {
  return /[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Streams CSV rows to a file with `\n` line ends, quoting only where RFC 4180 needs it. */
export class CsvWriter {
  readonly #out: WriteStream;

  constructor(path: string, columns: readonly string[]) {
    this.#out = createWriteStream(path);
    this.#out.write(`${columns.map(field).join(',')}\n`);
  }

  /** Writes one row; waits when the stream asks for it, so memory stays flat. */
  async row(values: ReadonlyArray<string | number | null>): Promise<void> {
    const line = `${values.map((v) => field(v === null ? '' : String(v))).join(',')}\n`;
    if (!this.#out.write(line)) await once(this.#out, 'drain');
  }

  async close(): Promise<void> {
    this.#out.end();
    await once(this.#out, 'finish');
  }
}
