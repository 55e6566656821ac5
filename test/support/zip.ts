import { writeFileSync } from 'node:fs';
import yazl from 'yazl';

/** Writes a zip at `path` holding `entries` (entry name → content), each entry whole in memory. */
export async function writeZip(path: string, entries: Record<string, Buffer | string>): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const [name, data] of Object.entries(entries)) zip.addBuffer(Buffer.from(data), name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream as AsyncIterable<Buffer>) chunks.push(c);
  writeFileSync(path, Buffer.concat(chunks));
}
