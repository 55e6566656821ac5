import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countryName, esefDocumentId } from './esef-source.js';

describe('ESEF countries as the catalog names them', () => {
  it('names the ESEF countries as FinanceDatabase and the S&P list write them', () => {
    expect(['ES', 'GB', 'FR', 'DE', 'NL', 'IT', 'SE', 'FI', 'CZ', 'LU'].map(countryName)).toEqual([
      'Spain',
      'United Kingdom',
      'France',
      'Germany',
      'Netherlands',
      'Italy',
      'Sweden',
      'Finland',
      'Czech Republic',
      'Luxembourg',
    ]);
  });

  it('reads a code whatever its case and spacing, and names nothing that is not two letters', () => {
    const letter = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ');
    fc.assert(
      fc.property(letter, letter, fc.boolean(), (a, b, lower) => {
        const code = `${a}${b}`;
        const written = ` ${lower ? code.toLowerCase() : code} `;
        expect(countryName(written)).toBe(countryName(code));
      }),
    );
    fc.assert(
      fc.property(
        fc.string().filter((s) => !/^[A-Za-z]{2}$/.test(s.trim())),
        (s) => {
          expect(countryName(s)).toBeUndefined();
        },
      ),
    );
  });
});

describe('ESEF document ids', () => {
  it('are one UUID per report key, the same on every run', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), (a, b) => {
        expect(esefDocumentId(a)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
        expect(esefDocumentId(a)).toBe(esefDocumentId(a));
        if (a !== b) expect(esefDocumentId(a)).not.toBe(esefDocumentId(b));
      }),
    );
  });
});
