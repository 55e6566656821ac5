import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonString, roundedMs } from './access-log.js';

describe('jsonString', () => {
  it('is JSON.stringify of any string: lone surrogates, controls, quotes and backslashes included', () => {
    const text = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.string({
        unit: fc.constantFrom('"', '\\', '\u0000', '\n', '\u001f', '\u007f', '\ud800', '\udc00', 'é', 'a', '/', '?', '%'),
      }),
    );
    fc.assert(
      fc.property(text, (s) => jsonString(s) === JSON.stringify(s)),
      { numRuns: 5000 },
    );
  });

  it('quotes a url with nothing to escape as it is', () => {
    const url = '/api/v1/revenues?ticker=AAPL&mic_code=XNGS&reporting_period=2024';
    expect(jsonString(url)).toBe(`"${url}"`);
  });
});

describe('roundedMs', () => {
  it('is String(Math.round(ms * 100) / 100) for any duration', () => {
    const ms = fc.oneof(
      fc.double({ min: 0, max: 1e6, noNaN: true }),
      fc.double({ min: 0, max: 1e13, noNaN: true }),
      fc.integer({ min: 0, max: 10_000_000 }).map((h) => h / 100),
      fc.integer({ min: 0, max: 100_000 }).map((h) => h / 1000),
      fc.constantFrom(0, -0, 0.005, 0.015, 1.005, 2.675, 1e15, 1e20, Number.POSITIVE_INFINITY, Number.NaN, -1.25),
    );
    fc.assert(
      fc.property(ms, (x) => roundedMs(x) === String(Math.round(x * 100) / 100)),
      { numRuns: 20_000 },
    );
  });
});
