import { parseArgs } from 'node:util';
import { autoFailoverInstalled } from '../scratch/auto-failover-formation.js';
import { type Ha, runFailover, type Victim } from './failover.js';

/**
 * `npm run failover -- [--ha pg_auto_failover|manual] [--kill primary|standby|both] [--before-ms MS]
 * [--after-ms MS] [--detect-ms MS] [--connections C] [--seed S]`: builds a primary and a synchronous
 * standby on local ports (a pg_auto_failover formation with its monitor, the default when
 * `pg_autoctl` is installed, or a pair made by hand), runs billed load on two `bin/corpdata serve`
 * instances given their multi-host URL, SIGKILLs a server's postmaster, waits for the promotion (or
 * makes it, `manual`) and the old primary's return as the new standby, and audits the ledger
 * (design §21.2). Prints one JSON report per kill; exits 1 on any breach.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      ha: { type: 'string' },
      kill: { type: 'string', default: 'both' },
      'before-ms': { type: 'string', default: '8000' },
      'after-ms': { type: 'string', default: '8000' },
      'detect-ms': { type: 'string', default: '2000' },
      connections: { type: 'string', default: '32' },
      seed: { type: 'string', default: String(Date.now() % 1_000_000) },
    },
  });
  const ha = values.ha ?? (autoFailoverInstalled() ? 'pg_auto_failover' : 'manual');
  if (ha !== 'pg_auto_failover' && ha !== 'manual') throw new Error('--ha must be pg_auto_failover or manual');
  if (ha === 'pg_auto_failover' && !autoFailoverInstalled())
    throw new Error(
      '--ha pg_auto_failover needs pg_autoctl: apt-get install -y postgresql-15-auto-failover pg-auto-failover-cli',
    );
  const mode: Ha = ha;
  const kill = values.kill;
  if (kill !== 'primary' && kill !== 'standby' && kill !== 'both') throw new Error('--kill must be primary, standby or both');
  const victims: Victim[] = kill === 'both' ? ['primary', 'standby'] : [kill];
  for (const victim of victims) {
    const report = await runFailover({
      victim,
      ha: mode,
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
