import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonString } from './access-log.js';

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
