import { describe, expect, it } from 'vitest';
import { median } from './cpu-rounds.js';
import { cpuBetween, cpuSnapshot, postgresPids } from './cpu-time.js';

describe('CPU time of processes', () => {
  it('reads this process’s CPU seconds, which grow as it works, and nothing for a process that does not exist', () => {
    const before = cpuSnapshot([process.pid, 2 ** 22 + 7]);
    expect(before.has(2 ** 22 + 7)).toBe(false);
    const end = Date.now() + 80;
    let x = 0;
    while (Date.now() < end) x += Math.sqrt(x + 1);
    const after = cpuSnapshot([process.pid]);
    expect(x).toBeGreaterThan(0);
    expect(cpuBetween(before, after)).toBeGreaterThan(0.02);
  });

  it('counts a process started between two snapshots in full and leaves out one that ended', () => {
    const before = new Map([
      [10, 1.5],
      [11, 4],
    ]);
    const after = new Map([
      [10, 2],
      [12, 0.25],
    ]);
    expect(cpuBetween(before, after)).toBeCloseTo(0.75);
  });

  it('finds no PostgreSQL server on a port nothing listens on', () => {
    expect(() => postgresPids(1)).toThrow(/no PostgreSQL server found listening on port 1/);
  });

  it('takes the median of the rounds, the upper middle for an even count', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(3);
    expect(median([])).toBe(0);
  });
});
