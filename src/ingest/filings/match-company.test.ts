import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nameMatchKey } from './match-company.js';

describe('a filer’s name as matched to the catalog (design §13.6, §14.1)', () => {
  it('ignores case, accents, punctuation, “&”/“and” and a trailing legal form', () => {
    expect(nameMatchKey('Industria de Diseño Textil, S.A.')).toBe(nameMatchKey('INDUSTRIA DE DISENO TEXTIL SA'));
    expect(nameMatchKey('Gamma Holdings plc')).toBe(nameMatchKey('GAMMA HOLDINGS PLC'));
    expect(nameMatchKey('Marks & Spencer Group plc')).toBe(nameMatchKey('Marks and Spencer Group'));
    expect(nameMatchKey('Endesa, S.A.')).not.toBe(nameMatchKey('Enel S.p.A.'));
  });

  it('is the same for a name however it is cased or spaced', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z][A-Za-z ]{0,30}$/), (name) => {
        expect(nameMatchKey(name.toUpperCase())).toBe(nameMatchKey(name.toLowerCase()));
        expect(nameMatchKey(`  ${name.replace(/ /g, '  ')} `)).toBe(nameMatchKey(name));
      }),
    );
  });
});
