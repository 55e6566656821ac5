import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { roundToDecimals, sameValue, wholeUnits } from './exact-value.js';

/** Half away from zero on an exact rational: what `wholeUnits` must give, computed apart. */
function expectedRound(integer: bigint, fraction: string, negative: boolean): bigint {
  const up = fraction !== '' && fraction.charCodeAt(0) - 48 >= 5;
  const magnitude = integer + (up ? 1n : 0n);
  return negative ? -magnitude : magnitude;
}

describe('exact values of xBRL-JSON facts', () => {
  it('reads values as filed, canonical `.0` and all, without a float', () => {
    expect(wholeUnits('20935000000.0')).toBe(20935000000n);
    expect(wholeUnits('302632000')).toBe(302632000n);
    expect(wholeUnits('-3261000.0')).toBe(-3261000n);
    expect(wholeUnits('0.0')).toBe(0n);
    // Past 2^53 a float would drift; the digits stay exact.
    expect(wholeUnits('123456789012345678901.0')).toBe(123456789012345678901n);
    expect(wholeUnits('9007199254740993.0')).toBe(9007199254740993n);
    expect(wholeUnits('1.5E9')).toBe(1500000000n);
    expect(wholeUnits('25e-1')).toBe(3n);
  });

  it('rounds a fraction half away from zero to a whole unit', () => {
    expect(wholeUnits('2.5')).toBe(3n);
    expect(wholeUnits('-2.5')).toBe(-3n);
    expect(wholeUnits('2.49999999999999999999')).toBe(2n);
    expect(wholeUnits('-0.4')).toBe(0n);
    expect(wholeUnits('.5')).toBe(1n);
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.stringMatching(/^[0-9]{0,12}$/), fc.boolean(), (i, f, neg) => {
        const text = `${neg ? '-' : ''}${i}${f === '' ? '' : `.${f}`}`;
        expect(wholeUnits(text)).toBe(expectedRound(i, f, neg));
      }),
    );
  });

  it('refuses what is not a decimal number', () => {
    for (const bad of ['', '-', '.', 'abc', '1,000', '1.2.3', ' 12', 'NaN', 'INF', '0x10', '1e', '12 000']) {
      expect(wholeUnits(bad), bad).toBeUndefined();
    }
  });

  it('rounds to a precision (decimals) half away from zero', () => {
    expect(roundToDecimals(20935400000n, -6)).toBe(20935000000n);
    expect(roundToDecimals(-2500n, -3)).toBe(-3000n);
    expect(roundToDecimals(2499n, -3)).toBe(2000n);
    expect(roundToDecimals(1234n, 2)).toBe(1234n);
    expect(roundToDecimals(1234n, 'INF')).toBe(1234n);
  });

  it('takes a figure tagged in thousands and again in millions as one value, different figures as two', () => {
    expect(sameValue({ value: 20935123000n, decimals: -3 }, { value: 20935000000n, decimals: -6 })).toBe(true);
    expect(sameValue({ value: 20935000000n, decimals: -6 }, { value: 20936000000n, decimals: -6 })).toBe(false);
    expect(sameValue({ value: 100n, decimals: 'INF' }, { value: 101n, decimals: 'INF' })).toBe(false);
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }), fc.integer({ min: -9, max: 2 }), (v, d) => {
        // A value and itself rounded to any coarser precision are one value, whichever comes first.
        const rounded = { value: roundToDecimals(v, d), decimals: d };
        expect(sameValue({ value: v, decimals: 'INF' }, rounded)).toBe(true);
        expect(sameValue(rounded, { value: v, decimals: 'INF' })).toBe(true);
      }),
    );
  });
});
