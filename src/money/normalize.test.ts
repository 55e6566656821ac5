import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRate, toUsd } from './normalize.js';

/** Reference: exact rational arithmetic, rounding half away from zero, written independently. */
function reference(original: bigint, rate: string, divisor: bigint): bigint {
  const [int = '0', frac = ''] = rate.split('.');
  const num = original * BigInt(int + frac);
  const den = 10n ** BigInt(frac.length) * divisor;
  const abs = num < 0n ? -num : num;
  let q = abs / den;
  if ((abs % den) * 2n >= den) q += 1n;
  return num < 0n ? -q : q;
}

const rateArb = fc
  .tuple(fc.integer({ min: 0, max: 5000 }), fc.integer({ min: 0, max: 999_999_999 }), fc.integer({ min: 1, max: 9 }))
  .map(([int, frac, digits]) => `${int}.${String(frac).padStart(9, '0').slice(0, digits)}`)
  .filter((r) => parseRate(r) !== undefined);

describe('USD normalization', () => {
  it('passes USD figures through unchanged', () => {
    fc.assert(fc.property(fc.maxSafeInteger(), (v) => toUsd(v, 'USD', '1') === v));
  });

  it('equals the exactly rounded product for any figure and rate', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), rateArb, (v, rate) => {
        expect(BigInt(toUsd(v, 'EUR', rate))).toBe(reference(BigInt(v), rate, 1n));
      }),
    );
  });

  it('divides ZAC and ILA by 100 before applying the ZAR or ILS rate', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e13 }), rateArb, (v, rate) => {
        expect(BigInt(toUsd(v, 'ZAC', rate))).toBe(reference(BigInt(v), rate, 100n));
        expect(BigInt(toUsd(v, 'ILA', rate))).toBe(reference(BigInt(v), rate, 100n));
      }),
    );
  });

  it('rounds halves away from zero', () => {
    expect(toUsd(5, 'EUR', '0.5')).toBe(3);
    expect(toUsd(-5, 'EUR', '0.5')).toBe(-3);
    expect(toUsd(4, 'EUR', '0.5')).toBe(2);
    expect(toUsd(150, 'ZAC', '0.01')).toBe(0);
    expect(toUsd(50, 'ZAC', '1')).toBe(1);
  });

  it('is symmetric in sign', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e12 }), rateArb, (v, rate) => toUsd(-v, 'GBP', rate) === -toUsd(v, 'GBP', rate)),
    );
  });

  it('refuses unsafe inputs and results, and malformed rates', () => {
    expect(() => toUsd(2 ** 53, 'EUR', '1.1')).toThrow(RangeError);
    expect(() => toUsd(Number.MAX_SAFE_INTEGER, 'EUR', '2')).toThrow(RangeError);
    for (const bad of ['0', '0.0', '-1.2', '1e-3', '1.', '.5', 'abc', ''])
      expect(() => toUsd(1, 'EUR', bad), bad).toThrow(RangeError);
  });
});
