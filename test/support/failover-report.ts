import { expect } from 'vitest';
import type { FailoverReport } from '../../src/tools/failover.js';

/**
 * What every failover run must keep (design §21.2), whichever setup and server was killed: no
 * discrepancy in the ledger's audit, no 500, billed load single and batched, both instances back to
 * 200 within 30 s, the standby in sync at the end, and no more charged 503s than 503s.
 */
export function expectFailoverKept(report: FailoverReport): void {
  expect(report.discrepancies).toEqual([]);
  expect(report.byStatus['500'] ?? 0).toBe(0);
  expect(report.byStatus['200'] ?? 0).toBeGreaterThan(0);
  expect(report.charges).toBeGreaterThan(0);
  expect(report.multiPart).toBeGreaterThan(0);
  expect(report.recoveries.map((r) => r.instance)).toEqual([0, 1]);
  for (const r of report.recoveries) expect(r.ms ?? Number.POSITIVE_INFINITY).toBeLessThanOrEqual(30_000);
  expect(report.standbyInSync).toBe(true);
  expect(report.unavailable.charged).toBeLessThanOrEqual(report.unavailable.answered);
}
