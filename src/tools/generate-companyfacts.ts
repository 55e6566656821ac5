/**
 * Writes a deterministic synthetic SEC bulk companyfacts.zip and the matching ticker file, to
 * measure `bin/corpdata ingest` at any scale:
 *
 *   node dist/tools/generate-companyfacts.js OUT_DIR --filers 10000 [--seed N] [--years N]
 *
 * OUT_DIR receives companyfacts.zip and company_tickers_exchange.json. Prints one JSON object of
 * counts on stdout.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { syntheticTickers, writeSyntheticCompanyFacts } from './synthetic-companyfacts.js';

const USAGE = 'usage: node dist/tools/generate-companyfacts.js OUT_DIR --filers N [--seed N] [--years N]';

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
    options: { filers: { type: 'string' }, seed: { type: 'string' }, years: { type: 'string' } },
  });
  const [dir, ...rest] = positionals;
  if (dir === undefined || rest.length > 0) throw new Error(USAGE);
  const filers = count('filers', values.filers);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'company_tickers_exchange.json'), syntheticTickers(filers));
  const summary = await writeSyntheticCompanyFacts(join(dir, 'companyfacts.zip'), {
    filers,
    seed: count('seed', values.seed, 1),
    years: count('years', values.years, 10),
  });
  process.stdout.write(`${JSON.stringify(summary)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`generate-companyfacts: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
