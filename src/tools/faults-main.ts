import { parseArgs } from 'node:util';
import { runFaults } from './faults.js';
import { scratchDatabase } from './scratch-database.js';

/**
 * `npm run faults -- [--database postgres|sqlite] [--requests N] [--seconds S] [--instances I]
 * [--connections C] [--kill-every-ms MS] [--cut-every-ms MS] [--seed S]`: billed load on
 * `bin/corpdata serve` instances that are SIGKILLed and restarted (and, on PostgreSQL, database
 * connections cut), then a ledger audit. Prints one JSON report; exits 1 on any discrepancy.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      database: { type: 'string', default: 'postgres' },
      requests: { type: 'string', default: '100000' },
      seconds: { type: 'string', default: '600' },
      instances: { type: 'string' },
      connections: { type: 'string', default: '48' },
      'kill-every-ms': { type: 'string', default: '3000' },
      'cut-every-ms': { type: 'string', default: '2000' },
      seed: { type: 'string', default: String(Date.now() % 1_000_000) },
    },
  });
  const dialect = values.database === 'sqlite' ? 'sqlite' : 'postgres';
  const scratch = await scratchDatabase(dialect);
  try {
    const report = await runFaults({
      dialect,
      scratch,
      requests: Number(values.requests),
      seconds: Number(values.seconds),
      instances: Number(values.instances ?? (dialect === 'postgres' ? 3 : 1)),
      connections: Number(values.connections),
      killEveryMs: Number(values['kill-every-ms']),
      cutEveryMs: Number(values['cut-every-ms']),
      seed: Number(values.seed),
      log: (line) => process.stderr.write(`faults: ${line}\n`),
    });
    process.stdout.write(`${JSON.stringify({ seed: Number(values.seed), ...report })}\n`);
    if (report.discrepancies.length > 0) process.exitCode = 1;
  } finally {
    await scratch.remove();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`faults: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
