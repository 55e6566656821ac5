/**
 * Writes a deterministic synthetic bundle, to measure imports at any scale:
 *
 *   node dist/tools/generate-bundle.js OUT_DIR --companies 100000 --points 1000000 [--seed N]
 *
 * Prints one JSON object with the row counts on stdout, like the commands of bin/corpdata.
 */
import { parseArgs } from 'node:util';
import { writeSyntheticBundle } from './synthetic-bundle.js';

const USAGE = 'usage: node dist/tools/generate-bundle.js OUT_DIR --companies N --points N [--seed N]';

function count(name: string, value: string | undefined, fallback?: number): number {
  if (value === undefined && fallback !== undefined) return fallback;
  if (value === undefined || !/^[0-9]+$/.test(value) || !Number.isSafeInteger(Number(value))) {
    throw new Error(`--${name} must be a whole number\n${USAGE}`);
  }
  return Number(value);
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { companies: { type: 'string' }, points: { type: 'string' }, seed: { type: 'string' } },
  });
  const [dir, ...rest] = positionals;
  if (dir === undefined || rest.length > 0) throw new Error(USAGE);
  const companies = count('companies', values.companies);
  if (companies < 1) throw new Error('--companies must be at least 1');
  const summary = await writeSyntheticBundle(dir, {
    companies,
    points: count('points', values.points),
    seed: count('seed', values.seed, 1),
  });
  process.stdout.write(`${JSON.stringify(summary)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`generate-bundle: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
