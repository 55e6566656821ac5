import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidIsin, isValidLei } from './identifiers.js';

const ALNUM = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const expand = (s: string) => [...s].map((c) => String(Number.parseInt(c, 36))).join('');

/** Independent reference implementations, used to build valid identifiers. */
function isinCheckDigit(body: string): string {
  const digits = expand(body);
  let sum = 0;
  [...digits].reverse().forEach((ch, i) => {
    let d = Number(ch) * (i % 2 === 0 ? 2 : 1);
    if (d > 9) d -= 9;
    sum += d;
  });
  return String((10 - (sum % 10)) % 10);
}
function leiCheckDigits(body: string): string {
  return String(98 - Number(BigInt(expand(`${body}00`)) % 97n)).padStart(2, '0');
}

const chars = (alphabet: string, n: number) =>
  fc.array(fc.constantFrom(...alphabet), { minLength: n, maxLength: n }).map((a) => a.join(''));
const isinArb = fc.tuple(chars('ABCDEFGHIJKLMNOPQRSTUVWXYZ', 2), chars(ALNUM, 9)).map(([c, b]) => c + b + isinCheckDigit(c + b));
const leiArb = chars(ALNUM, 18).map((b) => b + leiCheckDigits(b));

describe('identifier check digits', () => {
  it('accepts real ISINs and LEIs', () => {
    for (const isin of ['US0378331005', 'DE0007164600', 'GB0002634946', 'JP3633400001'])
      expect(isValidIsin(isin), isin).toBe(true);
    for (const lei of ['529900T8BM49AURSDO55', '5493001KJTIIGC8Y1R12', 'HWUPKR0MPOU8FGXBT394'])
      expect(isValidLei(lei), lei).toBe(true);
  });

  it('accepts every ISIN built with a correct Luhn digit and refuses any other final digit', () => {
    fc.assert(
      fc.property(isinArb, fc.integer({ min: 1, max: 9 }), (isin, shift) => {
        expect(isValidIsin(isin)).toBe(true);
        const wrong = isin.slice(0, 11) + String((Number(isin[11]) + shift) % 10);
        expect(isValidIsin(wrong)).toBe(false);
      }),
    );
  });

  // A letter counts as two digits (A = 10 … Z = 35), so swapping a digit for a letter shifts the
  // digits before it and may by chance keep the remainder; MOD 97-10 guarantees detection of a
  // substitution within one class: a digit for a digit, a letter for a letter.
  it('accepts every LEI built with MOD 97-10 check digits and catches any same-class substitution', () => {
    const isDigit = (c: string) => /[0-9]/.test(c);
    fc.assert(
      fc.property(leiArb, fc.integer({ min: 0, max: 19 }), fc.constantFrom(...ALNUM), (lei, at, ch) => {
        expect(isValidLei(lei)).toBe(true);
        const changed = lei.slice(0, at) + ch + lei.slice(at + 1);
        fc.pre(changed !== lei && isDigit(ch) === isDigit(lei[at] ?? ''));
        expect(isValidLei(changed)).toBe(false);
      }),
    );
  });

  it('refuses wrong shapes', () => {
    for (const bad of ['', 'US037833100', 'US03783310055', 'us0378331005', '1S0378331005', 'US037833100X'])
      expect(isValidIsin(bad), bad).toBe(false);
    for (const bad of ['529900T8BM49AURSDO5', '529900t8bm49aursdo55', '529900T8BM49AURSDOX5'])
      expect(isValidLei(bad), bad).toBe(false);
  });
});
