import { describe, expect, it } from 'vitest';
import { editDistance, SearchIndex } from './search.js';

const index = new SearchIndex([
  { companyId: 'apple', name: 'Apple Inc.', tickers: ['AAPL'] },
  { companyId: 'applied', name: 'Applied Materials, Inc.', tickers: ['AMAT'] },
  { companyId: 'pineapple', name: 'Pineapple Energy', tickers: ['PEGY'] },
  { companyId: 'siemens', name: 'Siemens AG', tickers: ['SIE'] },
  { companyId: 'siemens-energy', name: 'Siemens Energy AG', tickers: ['ENR'] },
  { companyId: 'nestle', name: 'Nestlé S.A.', tickers: ['NESN'] },
  { companyId: 'siemens-long', name: 'Siemens Healthineers Aktiengesellschaft', tickers: ['SHL'] },
  { companyId: 'a-co', name: 'A Company', tickers: ['APPLE'] },
]);

describe('search ranking', () => {
  it('puts an exact ticker before an exact name', () => {
    expect(index.search('apple')).toEqual(['a-co', 'apple', 'pineapple']);
  });

  it('ranks name prefixes before ticker prefixes before matches inside a word', () => {
    expect(index.search('appl')).toEqual(['apple', 'applied', 'a-co', 'pineapple']);
  });

  it('ignores legal suffixes, case and accents', () => {
    expect(index.search('siemens ag')[0]).toBe('siemens');
    expect(index.search('Siemens Healthineers')[0]).toBe('siemens-long');
    expect(index.search('NESTLE')).toEqual(['nestle']);
    expect(index.search('nestlé sa')).toEqual(['nestle']);
  });

  it('finds near misses last', () => {
    expect(index.search('siemans')).toEqual(['siemens', 'siemens-energy', 'siemens-long']);
  });

  it('caps the result count', () => {
    expect(index.search('e', 2)).toHaveLength(2);
  });

  it('measures edit distance with an early exit', () => {
    expect(editDistance('kitten', 'sitting', 5)).toBe(3);
    expect(editDistance('abc', 'abc', 0)).toBe(0);
    expect(editDistance('abcdef', 'a', 2)).toBe(3);
  });
});
