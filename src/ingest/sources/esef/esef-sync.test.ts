import { isAbsolute, relative } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { insideFolder } from '../../sync/download-name.js';
import { firstPageUrl, parseCountryList, parseSinceDate, rebase, reportFileName, reportSource } from './esef-sync.js';

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

const DIR = '/var/tmp/corpdata-sync-x/r0';
const isInside = (path: string) => {
  const rel = relative(DIR, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
};
/** URL-ish text rich in what a hostile source would send: separators, dots, percent-encodings. */
const hostile = fc
  .array(fc.constantFrom('/', '..', '.', '%2F', '%2f', '%2E', '%00', '%E0%A4%A', '\\', 'a', 'é', '~', '\u0000', ' ', 'x.json'), {
    maxLength: 20,
  })
  .map((parts) => parts.join(''));

describe('reportFileName', () => {
  it('keeps a plain file name as the index has it: the ingest identifies the report by it', () => {
    expect(reportFileName('https://filings.xbrl.org/5493/2024-12-31/ESEF/ES/0/5493-2024-12-31-0-es.json')).toBe(
      '5493-2024-12-31-0-es.json',
    );
  });
  it('names anything else by its hash, never by a decoded segment', () => {
    const name = reportFileName('https://filings.xbrl.org/a/..%2F..%2F..%2Fanother%2Ffolder%2Fvictim.db');
    expect(name).toMatch(/^report-[0-9a-f]{32}\.json$/);
    expect(reportFileName('https://filings.xbrl.org/a/..')).toMatch(/^report-[0-9a-f]{32}\.json$/);
    expect(reportFileName('https://filings.xbrl.org/a/')).toMatch(/^report-[0-9a-f]{32}\.json$/);
  });
  it('gives, for any URL at all, one name that stays inside the folder', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), hostile), (url) => {
        const name = reportFileName(url);
        expect(name).toMatch(/^[A-Za-z0-9][A-Za-z0-9._-]*$/);
        expect(isInside(insideFolder(DIR, name))).toBe(true);
      }),
    );
  });
});

describe('reportSource', () => {
  const base = 'http://127.0.0.1:9';
  it('moves a listed URL to the base, its encoding untouched', () => {
    expect(reportSource('https://filings.xbrl.org/a/b%20c.json?x=1', base)).toEqual({ url: `${base}/a/b%20c.json?x=1` });
    expect(reportSource('https://filings.xbrl.org/a/..%2F..%2Fvictim.db', base)).toEqual({
      url: `${base}/a/..%2F..%2Fvictim.db`,
    });
  });
  it('refuses a path whose percent-encoding is malformed, or a URL not http(s)', () => {
    for (const bad of ['https://filings.xbrl.org/a/%E0%A4%A.json', 'https://filings.xbrl.org/%ZZ.json', 'ftp://x/a.json']) {
      expect(reportSource(bad, base), bad).toEqual({ fault: 'malformed_json_url' });
    }
  });
  it('never answers with a URL off the base, whatever it is given', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), hostile, fc.webUrl()), (url) => {
        const got = reportSource(url, base);
        if ('url' in got) expect(new URL(got.url).origin).toBe(base);
      }),
    );
  });
});
