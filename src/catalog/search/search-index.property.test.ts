import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ReferenceScan } from './reference-scan.js';
import { type SearchEntry, SearchIndex } from './search-index.js';

const WORDS = [
  'alpha',
  'alps',
  'alphabet',
  'beta',
  'bet',
  'gamma',
  'gama',
  'delta',
  'deltas',
  'energy',
  'enerqy',
  'bank',
  'banco',
  'alphabeta',
  'a',
  'b',
];
const SUFFIXES = ['', ' Inc.', ' AG', ' S.A.', ' plc', ' Holdings', ' Co., Ltd.'];

const entryArb = fc
  .record({
    words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }),
    suffix: fc.constantFrom(...SUFFIXES),
    accent: fc.boolean(),
    tickers: fc.array(fc.stringMatching(/^[A-Z]{1,4}$/), { minLength: 1, maxLength: 2 }),
    prominence: fc.integer({ min: 0, max: 7 }),
    // Now and then a company given twice (as a catalog with one company per listing would).
    twin: fc.integer({ min: 0, max: 9 }),
  })
  .map((r) => {
    const name = r.words.join(' ') + r.suffix;
    return { name: r.accent ? name.replace('e', 'é') : name, tickers: r.tickers, prominence: r.prominence, twin: r.twin };
  });

const catalogArb = fc
  .array(entryArb, { minLength: 1, maxLength: 40 })
  .map((es): SearchEntry[] =>
    es.map(({ twin, ...e }, i) => ({ companyId: `c${String(twin === 0 && i > 0 ? i - 1 : i).padStart(3, '0')}`, ...e })),
  );

/** Queries cut from the catalog's own names and tickers, with a typo now and then, and noise. */
function queryArb(catalog: readonly SearchEntry[]): fc.Arbitrary<string> {
  const texts = catalog.flatMap((e) => [e.name, ...e.tickers]);
  const cut = fc
    .record({ text: fc.constantFrom(...texts), from: fc.nat(8), length: fc.integer({ min: 1, max: 20 }) })
    .map(({ text, from, length }) => text.slice(Math.min(from, text.length - 1), Math.min(from, text.length - 1) + length));
  const typo = fc
    .record({ text: fc.constantFrom(...texts), at: fc.nat(30), ch: fc.constantFrom('a', 'e', 'x', ' ') })
    .map(({ text, at, ch }) => text.slice(0, at % text.length) + ch + text.slice((at % text.length) + 1));
  const swap = fc.record({ text: fc.constantFrom(...texts), at: fc.nat(30) }).map(({ text, at }) => {
    const i = at % Math.max(1, text.length - 1);
    return text.slice(0, i) + text.charAt(i + 1) + text.charAt(i) + text.slice(i + 2);
  });
  // Spaces taken out or put in: "alpha beta" as "alphabeta", "alphabet" as "alpha bet".
  const respaced = fc.record({ text: fc.constantFrom(...texts), at: fc.nat(30) }).map(({ text, at }) => {
    const i = at % text.length;
    return text.charAt(i) === ' ' ? text.slice(0, i) + text.slice(i + 1) : `${text.slice(0, i)} ${text.slice(i)}`;
  });
  return fc.oneof(cut, typo, swap, respaced, fc.constantFrom(...texts), fc.constantFrom(...WORDS), fc.string({ maxLength: 12 }));
}

describe('search index', () => {
  it('answers exactly what a scan of every company answers', () => {
    fc.assert(
      fc.property(
        catalogArb.chain((catalog) =>
          fc.tuple(fc.constant(catalog), fc.array(queryArb(catalog), { minLength: 1, maxLength: 10 })),
        ),
        ([catalog, queries]) => {
          const index = new SearchIndex(catalog);
          const scan = new ReferenceScan(catalog);
          for (const q of queries) {
            expect({ q, actual: index.search(q) }).toEqual({ q, actual: scan.search(q) });
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
