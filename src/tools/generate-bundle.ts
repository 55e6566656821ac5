/**
 * Writes a deterministic synthetic bundle, to measure imports at any scale:
 *
 *   node dist/tools/generate-bundle.js OUT_DIR --companies 100000 --points 1000000 [--seed N]
 *
 * Prints one JSON object with the row counts on stdout, like the commands of bin/corpdata.
 */
import { parseArgs } from 'node:util';
import { countOption } from './count-option.js';
import { writeSyntheticBundle } from './synthetic-bundle.js';

const USAGE = 'usage: node dist/tools/generate-bundle.js OUT_DIR --companies N --points N [--seed N]';

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { companies: { type: 'string' }, points: { type: 'string' }, seed: { type: 'string' } },
  });
  const [dir, ...rest] = positionals;
  if (dir === undefined || rest.length > 0) throw new Error(USAGE);
  const companies = countOption('companies', values.companies, USAGE, { min: 0 });
  if (companies < 1) throw new Error('--companies must be at least 1');
  const summary = await writeSyntheticBundle(dir, {
    companies,
    points: countOption('points', values.points, USAGE, { min: 0 }),
    seed: countOption('seed', values.seed, USAGE, { min: 0, fallback: 1 }),
  });
  process.stdout.write(`${JSON.stringify(summary)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`generate-bundle: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
