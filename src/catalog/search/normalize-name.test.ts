import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nameKey, scriptWords, words } from './normalize-name.js';

describe('name normalization', () => {
  it('folds case, accents and legal forms in the scripts that have them', () => {
    expect(nameKey('Nestlé S.A.')).toEqual(['nestle']);
    expect(nameKey("O'Reilly Automotive, Inc.")).toEqual(['oreilly', 'automotive']);
    expect(nameKey('Südzucker AG')).toEqual(['sudzucker']);
    expect(nameKey('Μυτιληναίος Α.Ε.')).toEqual(['μυτιληναιοσ']);
    expect(nameKey('Ёлка Групп АО')).toEqual(['елка', 'групп']);
    expect(words('Йошкар')).toEqual(['йошкар']);
    expect(nameKey('貴州茅台酒股份有限公司')).toEqual(['貴州茅台酒']);
    expect(nameKey('בנק הפועלים בע״מ')).toEqual(['בנק', 'הפועלים']);
    expect(words('ソニーグループ')).toEqual(['ソニーグループ']);
    expect(words('삼성전자')).toEqual(['삼성전자']);
  });

  it('keeps at least one word', () => {
    expect(nameKey('The Company')).toEqual(['the']);
    expect(nameKey('AG')).toEqual(['ag']);
  });

  it('splits Latin names by hand exactly as the general path does', () => {
    const latin = fc.integer({ min: 0x20, max: 0x24f }).map((c) => String.fromCharCode(c));
    fc.assert(
      fc.property(fc.string({ unit: fc.oneof(latin, fc.constantFrom('a', ' ', '.', '&', 'é', 'ß')), maxLength: 30 }), (s) => {
        expect(words(s)).toEqual(scriptWords(s));
      }),
      { numRuns: 2000 },
    );
  });

  it('is stable: words of the joined words are the same words', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (s) => {
        const once = words(s);
        expect(words(once.join(' '))).toEqual(once);
      }),
    );
  });
});
