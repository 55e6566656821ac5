/**
 * Writes deterministic synthetic ESEF reports (xBRL-JSON as filings.xbrl.org serves them) and the
 * index pages that list them, to measure the ESEF reader and ingests at any scale:
 *
 *   node dist/tools/generate-esef.js OUT_DIR --reports 400 [--seed N]
 *
 * OUT_DIR receives reports/*.json (0.5 to 11 MB each, about 4.7 MB on average) and index/page-NNNNN.json.
 * Prints one JSON object of counts on stdout.
 */
import { parseArgs } from 'node:util';
import { countOption } from './count-option.js';
import { writeSyntheticEsef } from './synthetic-esef.js';

const USAGE = 'usage: node dist/tools/generate-esef.js OUT_DIR --reports N [--seed N]';

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { reports: { type: 'string' }, seed: { type: 'string' } },
  });
  const [dir, ...rest] = positionals;
  if (dir === undefined || rest.length > 0) throw new Error(USAGE);
  const summary = await writeSyntheticEsef(dir, {
    reports: countOption('reports', values.reports, USAGE),
    seed: countOption('seed', values.seed, USAGE, { fallback: 1 }),
  });
  process.stdout.write(`${JSON.stringify(summary)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`generate-esef: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
