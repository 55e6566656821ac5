import { isAbsolute, relative } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { insideFolder, reportFileName, reportSource } from './download-name.js';

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

describe('insideFolder', () => {
  it('refuses any name that resolves outside the folder, or to the folder itself', () => {
    for (const bad of ['..', '../x', 'a/../../x', '.', '', 'a/..']) {
      expect(() => insideFolder(DIR, bad), bad).toThrow(/would leave its folder/);
    }
    // Joined, not resolved: a leading slash stays inside.
    expect(insideFolder(DIR, '/etc/passwd')).toBe(`${DIR}/etc/passwd`);
  });
  it('passes exactly the names that resolve inside it', () => {
    fc.assert(
      fc.property(hostile, (name) => {
        let path: string | undefined;
        try {
          path = insideFolder(DIR, name);
        } catch {
          path = undefined;
        }
        if (path !== undefined) expect(isInside(path)).toBe(true);
        else expect(isInside(`${DIR}/${name}`) && relative(DIR, `${DIR}/${name}`) !== '').toBe(false);
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
