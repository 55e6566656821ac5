import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchKey } from '../catalog/search/match-key.js';
import type { DemoCompany } from './companies.js';
import { plainDecimal } from './ghg.js';
import { CatalogMatcher } from './ghg-match.js';

const company = (id: string, name: string, country: string | null, isin: string | null = null): DemoCompany => ({
  key: id,
  id,
  name,
  country,
  listings: [{ ticker: id.toUpperCase(), mic: 'XNYS', isin }],
});

describe('plainDecimal', () => {
  it('writes spreadsheet numbers as plain decimals, exactly', () => {
    expect(plainDecimal('4.36346E8')).toBe('436346000');
    expect(plainDecimal('1.6485E7')).toBe('16485000');
    expect(plainDecimal('260834.0')).toBe('260834');
    expect(plainDecimal('1071820.5546218487')).toBe('1071820.5546218487');
    expect(plainDecimal('5E-3')).toBe('0.005');
    expect(plainDecimal('007')).toBe('7');
    for (const bad of ['', 'n.a', '-5', '76,665,000 eller 436,346,000', '1.2.3']) expect(plainDecimal(bad), bad).toBeUndefined();
  });

  it('keeps the value of any number written with an exponent', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 9 }), fc.integer({ min: 0, max: 6 }), (n, e) => {
        expect(plainDecimal(`${n}E${e}`)).toBe(String(BigInt(n) * 10n ** BigInt(e)));
      }),
    );
  });
});

describe('matching to the catalog', () => {
  it('ignores case, accents, punctuation, & and "and", and a trailing legal form', () => {
    expect(matchKey('JPMORGAN CHASE & CO')).toBe(matchKey('JPMorgan Chase'));
    expect(matchKey('Procter and Gamble Co.')).toBe(matchKey('Procter & Gamble'));
    expect(matchKey('Nestlé S.A.')).toBe(matchKey('NESTLE SA'));
  });

  it('keeps a name that ends in "(The)" whole: a source\'s bare "Coca-Cola" may be a bottler', () => {
    expect(matchKey('Coca-Cola Company (The)')).not.toBe(matchKey('Coca-Cola'));
    expect(matchKey('Home Depot (The)')).not.toBe(matchKey('Home Depot'));
    expect(matchKey('Coca-Cola Company (The)')).toBe(matchKey('COCA COLA COMPANY (THE)'));
  });

  it('matches by ISIN first, then by a name only one company has (in the same country), and never guesses', () => {
    const matcher = new CatalogMatcher([
      company('a', 'Apple Inc.', 'United States', 'US0378331005'),
      company('b', 'ABB Ltd', 'Switzerland'),
      company('c', 'ABB Ltd', null),
      company('d', 'Volvo AB', 'Sweden'),
      company('e', 'Volvo AB', 'United States'),
      company('f', 'Boliden AB', 'Finland'),
    ]);
    const ref = (name: string, country: string | null, isin: string | null = null) => ({ name, country, isin, lei: null });
    expect(matcher.match(ref('Whatever', null, 'US0378331005'))).toMatchObject({ ok: true, by: 'ISIN', company: { id: 'a' } });
    expect(matcher.match(ref('Apple', 'United States'))).toMatchObject({ ok: true, by: 'name', company: { id: 'a' } });
    expect(matcher.match(ref('Volvo', 'Sweden'))).toMatchObject({ ok: true, company: { id: 'd' } });
    expect(matcher.match(ref('ABB', null))).toMatchObject({ ok: false, reason: expect.stringMatching(/^ambiguous/) });
    expect(matcher.match(ref('Boliden', 'Sweden'))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/Finland, not Sweden/),
    });
    expect(matcher.match(ref('Nobody', 'Sweden'))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^no catalog company/),
    });
  });
});
