import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { invertRate } from './invert-rate.js';

describe('invertRate', () => {
  it('gives 12 significant digits, rounded half up', () => {
    expect(invertRate('3.6725')).toBe('0.272294077604');
    expect(invertRate('151.3654')).toBe('0.00660652962962');
    expect(invertRate('0.5')).toBe('2');
    expect(invertRate('1')).toBe('1');
    expect(invertRate('8')).toBe('0.125');
  });

  it('is within half a unit in the 12th significant digit of the exact inverse', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), fc.integer({ min: 0, max: 4 }), (digits, scale) => {
        const text =
          scale === 0
            ? String(digits)
            : `${Math.floor(digits / 10 ** scale)}.${String(digits % 10 ** scale).padStart(scale, '0')}`;
        const inverse = Number(invertRate(text));
        const exact = 1 / Number(text);
        expect(Math.abs(inverse - exact) / exact).toBeLessThan(1e-11);
      }),
    );
  });
});
