import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { intensity } from './intensity.js';

/** An independent oracle: decimal strings, long division by hand, rounding on the 4th decimal and the rest. */
function oracle(emissions: number, revenue: number): number {
  const num = BigInt(emissions) * 1_000_000n;
  const den = BigInt(revenue);
  const whole = num / den;
  let rest = num % den;
  let thousandths = whole;
  for (let i = 0; i < 3; i++) {
    rest *= 10n;
    thousandths = thousandths * 10n + rest / den;
    rest %= den;
  }
  // Half away from zero: round up when the remainder is at least half the divisor.
  if (rest * 2n >= den) thousandths += 1n;
  return Number(thousandths) / 1000;
}

describe('intensity', () => {
  it('is emissions ÷ (revenue ÷ 1,000,000), to 3 decimals, half away from zero', () => {
    expect(intensity(1_240_000, 8_400_000_000)).toBe(147.619);
    expect(intensity(1, 2_000_000_000)).toBe(0.001); // 0.0005 → 0.001
    expect(intensity(1, 2_000_000_001)).toBe(0); // just under half
    expect(intensity(3, 9_000_000_000)).toBe(0);
    expect(intensity(0, 5)).toBe(0);
    expect(intensity(10, 0)).toBeUndefined();
    expect(intensity(10, -5)).toBeUndefined();
  });

  it('matches long division for any emissions and revenue', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 10 }), fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (e, r) => {
        expect(intensity(e, r)).toBe(oracle(e, r));
      }),
    );
  });

  it('is within half a thousandth of the exact quotient and has at most 3 decimals', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 9 }), fc.integer({ min: 1_000, max: 10 ** 13 }), (e, r) => {
        const v = intensity(e, r) ?? Number.NaN;
        expect(Math.abs(v - (e * 1e6) / r)).toBeLessThanOrEqual(0.0005 + 1e-9 * Math.max(1, v));
        expect(Math.round(v * 1000) / 1000).toBe(v);
      }),
    );
  });
});
