import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toTonnes } from './units.js';

describe('toTonnes', () => {
  it('converts t, kt and Mt exactly and rounds half away from zero', () => {
    expect(toTonnes('1.2345', 'Mt')).toBe(1_234_500);
    expect(toTonnes('456.7', 'kt')).toBe(456_700);
    expect(toTonnes('1200000.5', 't')).toBe(1_200_001);
    expect(toTonnes('1200000.49999', 't')).toBe(1_200_000);
    expect(toTonnes('0.0005', 'kt')).toBe(1);
    expect(toTonnes('0.0004999', 'kt')).toBe(0);
    expect(toTonnes('0', 'Mt')).toBe(0);
  });

  it('refuses what is not a non-negative decimal in t, kt or Mt', () => {
    for (const [value, unit] of [
      ['-1', 't'],
      ['1e3', 't'],
      ['1,5', 't'],
      ['', 't'],
      ['01', 't'],
      ['1.', 't'],
      ['1', 'tCO2e'],
      ['1', 'Gt'],
      ['99999999999', 'Mt'],
    ])
      expect(() => toTonnes(value ?? '', unit ?? ''), `${value} ${unit}`).toThrow();
  });

  it('agrees with scaled integer arithmetic for any thousandths of a unit', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10 ** 12 }),
        fc.constantFrom(['t', 1], ['kt', 1000], ['Mt', 1_000_000]),
        (milli, [unit, factor]) => {
          const text = `${Math.floor(milli / 1000)}.${String(milli % 1000).padStart(3, '0')}`;
          // milli thousandths × factor / 1000, rounded half up (all values are non-negative).
          const scaled = BigInt(milli) * BigInt(factor);
          const expected = Number((scaled + 500n) / 1000n);
          if (expected > Number.MAX_SAFE_INTEGER) return;
          expect(toTonnes(text, unit as string)).toBe(expected);
        },
      ),
    );
  });
});
