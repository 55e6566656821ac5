import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { editDistance } from './edit-distance.js';
import { keepsFirstLetter, nearWords, typoBudget } from './typos.js';

describe('typo budget', () => {
  it('allows two edits from five letters, one for three or four keeping the first letter, none below', () => {
    expect([1, 2, 3, 4, 5, 9].map((n) => typoBudget('x'.repeat(n)))).toEqual([0, 0, 1, 1, 2, 2]);
    expect(keepsFirstLetter('bank')).toBe(true);
    expect(keepsFirstLetter('banks')).toBe(false);
  });
});

describe('near words', () => {
  const vocabulary = ['bank', 'banks', 'band', 'microsoft', 'nvidia', 'siemens', 'tank', 'volkswagen'].sort();

  it('finds transpositions as one edit, and keeps the first letter when asked', () => {
    const near = (w: string, max: number, first = false) =>
      nearWords(vocabulary, w, max, first).map((n) => [vocabulary[n.word], n.distance]);
    expect(near('nvidai', 2)).toEqual([['nvidia', 1]]);
    expect(near('siemnes', 2)).toEqual([['siemens', 1]]);
    expect(near('volkswagn', 2)).toEqual([['volkswagen', 1]]);
    expect(near('bank', 1)).toEqual([
      ['band', 1],
      ['bank', 0],
      ['banks', 1],
      ['tank', 1],
    ]);
    expect(near('bank', 1, true)).toEqual([
      ['band', 1],
      ['bank', 0],
      ['banks', 1],
    ]);
  });

  it('answers what measuring every word answers', () => {
    const word = fc.stringMatching(/^[abc]{0,7}$/);
    fc.assert(
      fc.property(
        fc.uniqueArray(word, { maxLength: 40 }),
        word,
        fc.integer({ min: 0, max: 2 }),
        fc.boolean(),
        (ws, q, max, first) => {
          const sorted = [...ws].sort();
          const expected = sorted.flatMap((w, i) => {
            if (first && q !== '' && w.charAt(0) !== q.charAt(0)) return [];
            const distance = editDistance(q, w, max);
            return distance <= max ? [{ word: i, distance }] : [];
          });
          expect(nearWords(sorted, q, max, first)).toEqual(expected);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('measures the optimal string alignment distance', () => {
    // Reference: the textbook full table, transpositions of neighbours included.
    const osa = (a: string, b: string) => {
      const d = Array.from({ length: a.length + 1 }, (_, i) =>
        Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
      );
      for (let i = 1; i <= a.length; i++) {
        for (let j = 1; j <= b.length; j++) {
          const row = d[i] as number[];
          const up = d[i - 1] as number[];
          const cost = a[i - 1] === b[j - 1] ? 0 : 1;
          row[j] = Math.min((up[j] as number) + 1, (row[j - 1] as number) + 1, (up[j - 1] as number) + cost);
          if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
            row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
          }
        }
      }
      return (d[a.length] as number[])[b.length] as number;
    };
    const word = fc.stringMatching(/^[abc]{0,8}$/);
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 4 }), (a, b, max) => {
        expect(editDistance(a, b, max)).toBe(Math.min(osa(a, b), max + 1));
      }),
      { numRuns: 2000 },
    );
  });
});
