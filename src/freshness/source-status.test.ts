import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { medianOf } from './source-status.js';

describe('medianOf', () => {
  it('is the middle of an odd count, the mean of the middle two rounded down of an even one, null of none', () => {
    expect(medianOf([])).toBeNull();
    expect(medianOf([7])).toBe(7);
    expect(medianOf([1, 4])).toBe(2);
    expect(medianOf([1, 2, 9])).toBe(2);
  });

  it('has as many values at or below it as at or above it, and is an integer between the least and the greatest', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 10_000_000 }), { minLength: 1, maxLength: 50 }), (values) => {
        const sorted = [...values].sort((a, b) => a - b);
        const m = medianOf(sorted) ?? Number.NaN;
        expect(Number.isInteger(m)).toBe(true);
        expect(m).toBeGreaterThanOrEqual(sorted[0] ?? 0);
        expect(m).toBeLessThanOrEqual(sorted.at(-1) ?? 0);
        expect(sorted.filter((v) => v <= m).length * 2).toBeGreaterThanOrEqual(sorted.length);
        expect(sorted.filter((v) => v >= m).length * 2).toBeGreaterThanOrEqual(sorted.length);
      }),
    );
  });
});
