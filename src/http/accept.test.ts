import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { acceptList, lists, quality } from './accept.js';

/** `text` with each letter in upper or lower case, as `flips` says. */
const recased = (text: string, flips: readonly boolean[]) =>
  [...text].map((c, i) => (flips[i % Math.max(1, flips.length)] ? c.toUpperCase() : c.toLowerCase())).join('');

describe('acceptList', () => {
  it('reads each token lower-cased with its quality, whatever the spacing and the parameters', () => {
    expect(acceptList(' APPLICATION/Problem+JSON ;charset=UTF-8; Q=0.5 ,text/plain')).toEqual([
      { token: 'application/problem+json', q: 0.5 },
      { token: 'text/plain', q: 1 },
    ]);
    expect(quality('Application/JSON;q=0.3', 'application/json')).toBe(0.3);
    expect(lists('GZIP', 'gzip')).toBe(true);
  });

  it('gives a media type in any case the quality of its lower-case spelling (property)', () => {
    const type = fc.constantFrom('application/problem+json', 'application/json', 'text/plain', 'text/html', 'gzip');
    const q = fc.integer({ min: 0, max: 1000 }).map((n) => (n / 1000).toString());
    fc.assert(
      fc.property(
        type,
        q,
        fc.array(fc.boolean(), { minLength: 1, maxLength: 30 }),
        fc.constantFrom('', ' ', '  '),
        (t, qv, flips, ws) => {
          const header = `${ws}${recased(t, flips)}${ws};${ws}${recased('q', flips)}=${qv}${ws}`;
          expect(quality(header, t)).toBe(quality(`${t};q=${qv}`, t));
          expect(lists(header, t)).toBe(true);
        },
      ),
    );
  });
});
