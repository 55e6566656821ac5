import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Catalog, type Company } from './catalog.js';
import { tickerKey } from './ticker-key.js';

const SEPARATORS = ['.', '-', '/', ' '] as const;
const part = fc.stringMatching(/^[A-Za-z0-9]{1,5}$/);
const separator = fc.constantFrom(...SEPARATORS);

function company(companyId: string, name: string, ticker: string, micCode: string): Company {
  return {
    companyId,
    name,
    country: 'United States',
    lei: null,
    cik: null,
    listings: [{ companyId, ticker, micCode, isin: null, isPrimary: true, addedSeq: 1 }],
  };
}

describe('one ticker in every spelling (design §19.5)', () => {
  it('keys BRK.B, BRK-B, BRK/B, BRK B and brk.b alike, and no other ticker so', () => {
    expect(new Set(['BRK.B', 'BRK-B', 'BRK/B', 'BRK B', 'brk.b', ' BRK-B '].map(tickerKey))).toEqual(new Set(['BRK.B']));
    expect(tickerKey('BRKB')).not.toBe(tickerKey('BRK.B'));
    expect(tickerKey('BRK.A')).not.toBe(tickerKey('BRK.B'));
  });

  it('finds a listing stored in one spelling by any other, answering it as stored', () => {
    fc.assert(
      fc.property(part, part, separator, separator, fc.boolean(), (head, tail, stored, asked, lower) => {
        const ticker = `${head}${stored}${tail}`.toUpperCase();
        const catalog = new Catalog([
          company('00000000-0000-4000-8000-000000000001', 'Class Share Holdings Inc.', ticker, 'XNYS'),
          company('00000000-0000-4000-8000-000000000002', 'Plain Ticker Corp', `${head}${tail}X`.toUpperCase(), 'XNYS'),
        ]);
        const query = `${head}${asked}${tail}`;
        const found = catalog.byTicker(lower ? query.toLowerCase() : query.toUpperCase());
        expect(found?.companyId).toBe('00000000-0000-4000-8000-000000000001');
        expect(catalog.byTicker(query, 'XNYS')?.companyId).toBe('00000000-0000-4000-8000-000000000001');
        expect(catalog.listingsOf(query).map((l) => l.ticker)).toEqual([ticker]);
        expect(catalog.record('00000000-0000-4000-8000-000000000001')?.ticker).toBe(ticker);
        // Search's exact-ticker tier answers the same company first.
        expect(catalog.search.search(query, 1)).toEqual(['00000000-0000-4000-8000-000000000001']);
      }),
      { numRuns: 60 },
    );
  });
});
