import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLIENT_SOURCE_DIR, generateClientFiles } from './client-files.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * `npm run client:generate`: regenerates the typed client's `schema.d.ts` and `datasets.ts` from
 * the OpenAPI document, so the client follows every change of the API (a new dataset, an error
 * form) without hand edits.
 */
async function main(): Promise<void> {
  for (const [name, text] of await generateClientFiles()) {
    const target = join(ROOT, CLIENT_SOURCE_DIR, name);
    writeFileSync(target, text);
    process.stdout.write(`wrote ${target}\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`client:generate: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
