import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoTimestamp } from './iso-timestamp.js';

describe('isoTimestamp', () => {
  it('is toISOString for any instant from 1970 to 9999, asked in any order', () => {
    const instant = fc.integer({ min: 0, max: Date.UTC(9999, 11, 31, 23, 59, 59, 999) });
    fc.assert(
      fc.property(fc.array(instant, { minLength: 1, maxLength: 20 }), (instants) => {
        for (const ms of instants) expect(isoTimestamp(ms)).toBe(new Date(ms).toISOString());
      }),
    );
  });

  it('is toISOString for instants in one second, on both sides of it', () => {
    const base = Date.UTC(2026, 10, 24, 23, 5, 1);
    for (const ms of [base, base + 7, base + 42, base + 999, base + 1000, base - 1, base + 5]) {
      expect(isoTimestamp(ms)).toBe(new Date(ms).toISOString());
    }
  });
});
