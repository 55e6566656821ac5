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
import { writeSyntheticEsef } from './synthetic-esef.js';

const USAGE = 'usage: node dist/tools/generate-esef.js OUT_DIR --reports N [--seed N]';

function count(name: string, value: string | undefined, fallback?: number): number {
  if (value === undefined && fallback !== undefined) return fallback;
  if (value === undefined || !/^[0-9]+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
    throw new Error(`--${name} must be a whole number ≥ 1\n${USAGE}`);
  }
  return Number(value);
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { reports: { type: 'string' }, seed: { type: 'string' } },
  });
  const [dir, ...rest] = positionals;
  if (dir === undefined || rest.length > 0) throw new Error(USAGE);
  const summary = await writeSyntheticEsef(dir, {
    reports: count('reports', values.reports),
    seed: count('seed', values.seed, 1),
  });
  process.stdout.write(`${JSON.stringify(summary)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`generate-esef: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
