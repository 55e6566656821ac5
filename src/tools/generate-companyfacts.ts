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
import { countOption } from './count-option.js';
import { syntheticTickers, writeSyntheticCompanyFacts } from './synthetic-companyfacts.js';

const USAGE = 'usage: node dist/tools/generate-companyfacts.js OUT_DIR --filers N [--seed N] [--years N]';

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { filers: { type: 'string' }, seed: { type: 'string' }, years: { type: 'string' } },
  });
  const [dir, ...rest] = positionals;
  if (dir === undefined || rest.length > 0) throw new Error(USAGE);
  const filers = countOption('filers', values.filers, USAGE);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'company_tickers_exchange.json'), syntheticTickers(filers));
  const summary = await writeSyntheticCompanyFacts(join(dir, 'companyfacts.zip'), {
    filers,
    seed: countOption('seed', values.seed, USAGE, { fallback: 1 }),
    years: countOption('years', values.years, USAGE, { fallback: 10 }),
  });
  process.stdout.write(`${JSON.stringify(summary)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`generate-companyfacts: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
