import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wholeUnits } from './exact-value.js';

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
});
