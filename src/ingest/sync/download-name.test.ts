import { isAbsolute, relative } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { insideFolder } from './download-name.js';

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
