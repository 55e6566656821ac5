import { describe, expect, it } from 'vitest';
import { autoFailoverInstalled } from '../src/scratch/auto-failover-formation.js';
import { runFailover } from '../src/tools/failover.js';
import { expectFailoverKept } from './support/failover-report.js';

/**
 * The short version of `npm run failover` on a real pg_auto_failover formation (Debian's
 * `postgresql-15-auto-failover`; scripts/test.sh installs it): the monitor, not the test, promotes
 * the standby, and the old primary's keeper brings it back as the new standby (design §21.2).
 * docs/deployment.md has a full-size run.
 */
describe.each(['primary', 'standby'] as const)(
  'npm run failover --ha pg_auto_failover, short: the %s killed under billed load',
  (victim) => {
    it('loses no charge, doubles none, answers no 500, serves 200 again within 30 s, and the monitor ends with a primary and a secondary', async () => {
      expect(
        autoFailoverInstalled(),
        'pg_autoctl is missing: apt-get install -y postgresql-15-auto-failover pg-auto-failover-cli',
      ).toBe(true);
      const report = await runFailover({
        victim,
        ha: 'pg_auto_failover',
        beforeMs: 2000,
        afterMs: 1500,
        detectMs: 0,
        connections: 6,
        seed: 11,
      });
      expectFailoverKept(report);
      if (victim === 'primary') {
        // The keeper rewinds; should pg_rewind fail (it did once in a full-size run), it copies afresh.
        expect(['pg_rewind', 'pg_basebackup']).toContain(report.rejoinedWith);
        // Between the kill and the promotion no server takes writes: the calls of that time are 503s.
        expect(report.byStatus['503'] ?? 0).toBeGreaterThan(0);
        expect(report.monitorStates).toEqual(['node_a:secondary', 'node_b:primary']);
      } else {
        expect(report.rejoinedWith).toBeNull();
        expect(report.monitorStates).toEqual(['node_a:primary', 'node_b:secondary']);
      }
    }, 150_000);
  },
);
