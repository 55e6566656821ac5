import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { words } from './normalize-name.js';
import { MAX_RESPACINGS, respacings } from './respace.js';

const vocabulary = (ws: readonly string[]) => ({
  isWord: (w: string) => ws.includes(w),
  isPrefix: (p: string) => ws.some((w) => w.startsWith(p)),
});

describe('respacings', () => {
  const known = vocabulary(['jp', 'morgan', 'chase', 't', 'mobile', 'us', 'coca', 'cola', 'sap', 'loreal']);

  it('joins neighbours and runs of single letters', () => {
    expect(respacings(['jp', 'morgan'], known)).toEqual([['jpmorgan']]);
    expect(respacings(['coca', 'cola'], known)).toEqual([['cocacola']]);
    expect(respacings(['s', 'a', 'p'], known)).toEqual([['sap'], ['sa', 'p'], ['s', 'ap']]);
    expect(respacings(['j', 'p', 'morgan'], known).slice(0, 2)).toEqual([['jp', 'morgan'], ['jpmorgan']]);
  });

  it('cuts a word where both halves are words, the last half of the last word maybe a prefix', () => {
    expect(respacings(['jpmorgan'], known)).toEqual([['jp', 'morgan']]);
    expect(respacings(['tmobile'], known)).toEqual([['t', 'mobile']]);
    expect(respacings(['tmob'], known)).toEqual([['t', 'mob']]);
    expect(respacings(['tmob', 'us'], known)).toEqual([['tmobus']]);
  });

  it('drops dots and apostrophes inside words before any respacing', () => {
    expect(words('s.a.p.')).toEqual(['sap']);
    expect(words("l'oréal")).toEqual(['loreal']);
  });

  it('never answers the query itself, a repeat, or more than the cap', () => {
    const word = fc.stringMatching(/^[ab]{1,4}$/);
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 8 }), fc.array(word, { maxLength: 10 }), (query, ws) => {
        const out = respacings(query, vocabulary(ws)).map((r) => r.join(' '));
        expect(out.length).toBeLessThanOrEqual(MAX_RESPACINGS);
        expect(new Set(out).size).toBe(out.length);
        expect(out).not.toContain(query.join(' '));
        // Respacing moves spaces only: the letters stay as they were.
        for (const r of out) expect(r.replace(/ /g, '')).toBe(query.join(''));
      }),
    );
  });
});
