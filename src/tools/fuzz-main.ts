import { parseArgs } from 'node:util';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { runFuzz } from './fuzz.js';
import { FIXTURE_BUNDLE_DIR, scratchDatabase, TOOL_SECRET } from './scratch-database.js';

/**
 * `npm run fuzz -- --requests N [--connections C] [--database sqlite|postgres] [--seed S] [--bundle DIR]`:
 * a corpdata app on a scratch database (the test fixture's companies unless --bundle names another), fuzzed from its own OpenAPI document.
 * Prints one JSON report; exits 1 if any answer or the ledger broke a rule.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      requests: { type: 'string', default: '100000' },
      connections: { type: 'string', default: '32' },
      database: { type: 'string', default: 'sqlite' },
      seed: { type: 'string', default: String(Date.now() % 1_000_000) },
      bundle: { type: 'string' },
    },
  });
  const dialect = values.database === 'postgres' ? 'postgres' : 'sqlite';
  const scratch = await scratchDatabase(dialect, values.bundle ?? FIXTURE_BUNDLE_DIR);
  const started = Date.now();
  try {
    const rich = await scratch.account(1_000_000_000);
    const poor = await scratch.account(30);
    const unsubscribed = await scratch.account(1000, 'none');
    const config = loadConfig({
      CORPDATA_DATABASE: scratch.url,
      CORPDATA_SECRET: TOOL_SECRET,
      CORPDATA_DEMO: 'off',
      // The limiter runs (its headers are checked) but never refuses: with the default 100/s per
      // key most requests would be 429s, and the billing paths this run audits would go untried.
      CORPDATA_RATE_LIMIT: '1000000/s',
      LOG_LEVEL: 'silent',
    });
    const app = await buildApp({ config, db: scratch.db, logTo: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const report = await runFuzz({
      baseUrl: `http://127.0.0.1:${port}`,
      requests: Number(values.requests),
      connections: Number(values.connections),
      keys: [rich.key, rich.key, rich.key, poor.key, unsubscribed.key],
      examples: await scratch.examples(),
      db: scratch.db.kysely,
      seed: Number(values.seed),
    });
    await app.close();
    const seconds = Math.round((Date.now() - started) / 1000);
    process.stdout.write(`${JSON.stringify({ database: dialect, seed: Number(values.seed), seconds, ...report })}\n`);
    if (report.discrepancies.length > 0) process.exitCode = 1;
  } finally {
    await scratch.remove();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`fuzz: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
