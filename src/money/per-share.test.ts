import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toUsd } from './normalize.js';
import { PER_SHARE_USD_STEP, perShareCurrency, perShareMillionths, perShareNumber, perShareText } from './per-share.js';

describe('per-share values in millionths', () => {
  it('reads decimal text exactly and writes it back with the places it has', () => {
    fc.assert(
      fc.property(fc.integer({ min: -9_000_000_000_000, max: 9_000_000_000_000 }), (millionths) => {
        expect(perShareMillionths(perShareText(millionths))).toBe(millionths);
        expect(perShareNumber(millionths)).toBe(Number(perShareText(millionths)));
      }),
    );
    expect(perShareMillionths('3.28')).toBe(3_280_000);
    expect(perShareMillionths(-19.37)).toBe(-19_370_000);
    expect(perShareText(-500_000)).toBe('-0.5');
  });

  it('rounds a seventh place half away from zero, and refuses what is no plain decimal', () => {
    expect(perShareMillionths('0.0000005')).toBe(1);
    expect(perShareMillionths('-0.0000005')).toBe(-1);
    expect(perShareMillionths('0.00000049')).toBe(0);
    for (const bad of ['', '1e3', '1.', '.5', 'NaN', '--1', '1,5']) expect(perShareMillionths(bad), bad).toBeUndefined();
  });

  it('knows a currency per share by its unit', () => {
    expect(perShareCurrency('USD/shares')).toBe('USD');
    expect(perShareCurrency('EUR/share')).toBe('EUR');
    expect(perShareCurrency('USD')).toBeUndefined();
    expect(perShareCurrency('pure')).toBeUndefined();
  });

  it('converts to USD rounded to 4 decimals, half away from zero, exactly (design §18.2)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -100_000_000, max: 100_000_000 }),
        fc.integer({ min: 1, max: 99_999_999 }),
        (millionths, rate) => {
          const rateText = `1.${String(rate).padStart(8, '0')}`;
          const usd = toUsd(millionths, 'EUR', rateText, PER_SHARE_USD_STEP);
          expect(Math.abs(usd % PER_SHARE_USD_STEP)).toBe(0);
          // Exact: |usd − millionths × rate| ≤ half a step, computed in integers.
          const exact = BigInt(millionths) * BigInt(`1${String(rate).padStart(8, '0')}`);
          const diff = BigInt(usd) * 100_000_000n - exact;
          expect((diff < 0n ? -diff : diff) <= BigInt(PER_SHARE_USD_STEP / 2) * 100_000_000n).toBe(true);
        },
      ),
    );
    // A USD value is rounded too: 1.23455 → 1.2346, −1.23455 → −1.2346.
    expect(toUsd(1_234_550, 'USD', '1', PER_SHARE_USD_STEP)).toBe(1_234_600);
    expect(toUsd(-1_234_550, 'USD', '1', PER_SHARE_USD_STEP)).toBe(-1_234_600);
  });
});
