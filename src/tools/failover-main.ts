import { parseArgs } from 'node:util';
import { runFailover, type Victim } from './failover.js';

/**
 * `npm run failover -- [--kill primary|standby|both] [--before-ms MS] [--after-ms MS] [--detect-ms MS]
 * [--connections C] [--seed S]`: builds a primary and a synchronous standby on local ports, runs billed
 * load on two `bin/corpdata serve` instances given their multi-host URL, SIGKILLs a server's postmaster,
 * promotes the standby (or restarts it), brings the old primary back as the new standby, and audits
 * the ledger (design §21.2). Prints one JSON report per kill; exits 1 on any breach.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      kill: { type: 'string', default: 'both' },
      'before-ms': { type: 'string', default: '8000' },
      'after-ms': { type: 'string', default: '8000' },
      'detect-ms': { type: 'string', default: '2000' },
      connections: { type: 'string', default: '32' },
      seed: { type: 'string', default: String(Date.now() % 1_000_000) },
    },
  });
  const kill = values.kill;
  if (kill !== 'primary' && kill !== 'standby' && kill !== 'both') throw new Error('--kill must be primary, standby or both');
  const victims: Victim[] = kill === 'both' ? ['primary', 'standby'] : [kill];
  for (const victim of victims) {
    const report = await runFailover({
      victim,
      beforeMs: Number(values['before-ms']),
      afterMs: Number(values['after-ms']),
      detectMs: Number(values['detect-ms']),
      connections: Number(values.connections),
      seed: Number(values.seed),
      log: (line) => process.stderr.write(`failover: ${line}\n`),
    });
    process.stdout.write(`${JSON.stringify({ seed: Number(values.seed), ...report })}\n`);
    if (report.discrepancies.length > 0) process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`failover: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
