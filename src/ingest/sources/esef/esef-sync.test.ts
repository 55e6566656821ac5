import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstPageUrl, parseCountryList, parseSinceDate, rebase } from './esef-sync.js';

const CODES = ['ES', 'GB', 'FR', 'DE', 'IT', 'NL', 'BE', 'SE', 'FI', 'PL', 'EE', 'UA'];

describe('parseSinceDate', () => {
  it('takes every calendar date as YYYY-MM-DD, around blanks', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }),
        (d) => {
          const day = d.toISOString().slice(0, 10);
          expect(parseSinceDate(` ${day} `)).toBe(day);
        },
      ),
    );
  });
  it('refuses anything else, naming the option and the value', () => {
    for (const bad of ['2024-02-30', '2024-13-01', '2024-1-01', '20240101', 'yesterday', '']) {
      expect(() => parseSinceDate(bad)).toThrow(`--since: "${bad}" is not a date (YYYY-MM-DD)`);
    }
    fc.assert(
      fc.property(
        fc.string().filter((s) => !/^\s*[0-9]{4}-[0-9]{2}-[0-9]{2}\s*$/.test(s)),
        (s) => {
          expect(() => parseSinceDate(s)).toThrow('--since');
        },
      ),
    );
  });
});

describe('parseCountryList', () => {
  it('takes ISO 3166 codes in any case and order, once each, in upper case', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...CODES), { minLength: 1, maxLength: 8 }), fc.boolean(), (codes, lower) => {
        const text = codes.map((c) => (lower ? c.toLowerCase() : c)).join(' , ');
        expect(parseCountryList(text)).toEqual([...new Set(codes)]);
      }),
    );
  });
  it('refuses a code that names no country, and an empty list', () => {
    expect(() => parseCountryList('ES,XX')).toThrow('--country: "XX" is not an ISO 3166 country code');
    expect(() => parseCountryList('ESP')).toThrow('"ESP"');
    expect(() => parseCountryList(' , ')).toThrow('--country needs at least one');
  });
});

describe('rebase', () => {
  it("moves filings.xbrl.org's absolute and relative URLs to the base, query and all", () => {
    const next = 'https://filings.xbrl.org/api/filings?page%5Bsize%5D=5&filter%5Bcountry%5D=GB&page%5Bnumber%5D=2';
    expect(rebase(next, 'http://127.0.0.1:9')).toBe(
      'http://127.0.0.1:9/api/filings?page%5Bsize%5D=5&filter%5Bcountry%5D=GB&page%5Bnumber%5D=2',
    );
    expect(rebase('/549300LHK07F2CHV4X31/2024-12-31/ESEF/ES/0/x.json', 'https://mirror.example/esef')).toBe(
      'https://mirror.example/esef/549300LHK07F2CHV4X31/2024-12-31/ESEF/ES/0/x.json',
    );
  });
  it('asks for a country newest first, with entities, 100 a page', () => {
    expect(firstPageUrl('https://filings.xbrl.org', 'ES')).toBe(
      'https://filings.xbrl.org/api/filings?filter%5Bcountry%5D=ES&sort=-date_added&include=entity&page%5Bsize%5D=100',
    );
    expect(firstPageUrl('https://filings.xbrl.org', null)).toBe(
      'https://filings.xbrl.org/api/filings?sort=-date_added&include=entity&page%5Bsize%5D=100',
    );
  });
});
