import { describe, expect, it } from 'vitest';
import { random } from '../../tools/synthetic-ids.js';
import { syntheticEntries } from '../../tools/synthetic-names.js';
import { editDistance } from './edit-distance.js';
import { nameKey } from './normalize-name.js';
import { ReferenceScan } from './reference-scan.js';
import { SearchIndex } from './search-index.js';

const index = new SearchIndex([
  { companyId: 'apple', name: 'Apple Inc.', tickers: ['AAPL'] },
  { companyId: 'applied', name: 'Applied Materials, Inc.', tickers: ['AMAT'] },
  { companyId: 'pineapple', name: 'Pineapple Energy', tickers: ['PEGY'] },
  { companyId: 'siemens', name: 'Siemens AG', tickers: ['SIE'] },
  { companyId: 'siemens-energy', name: 'Siemens Energy AG', tickers: ['ENR'] },
  { companyId: 'nestle', name: 'Nestlé S.A.', tickers: ['NESN'] },
  { companyId: 'siemens-long', name: 'Siemens Healthineers Aktiengesellschaft', tickers: ['SHL'] },
  { companyId: 'a-co', name: 'A Company', tickers: ['APPLE'] },
]);

describe('search ranking', () => {
  it('puts an exact ticker before an exact name, and near misses last', () => {
    expect(index.search('apple')).toEqual(['a-co', 'apple', 'pineapple', 'applied']);
  });

  it('ranks name prefixes before ticker prefixes before matches inside a word', () => {
    expect(index.search('appl')).toEqual(['apple', 'applied', 'a-co', 'pineapple']);
  });

  it('ignores legal suffixes, case and accents', () => {
    expect(index.search('siemens ag')[0]).toBe('siemens');
    expect(index.search('Siemens Healthineers')[0]).toBe('siemens-long');
    expect(index.search('NESTLE')).toEqual(['nestle']);
    expect(index.search('nestlé sa')).toEqual(['nestle']);
  });

  it('finds near misses last', () => {
    expect(index.search('siemans')).toEqual(['siemens', 'siemens-energy', 'siemens-long']);
  });

  it('caps the result count', () => {
    expect(index.search('e', 2)).toHaveLength(2);
  });

  it('measures edit distance with an early exit, a transposition as one edit', () => {
    expect(editDistance('kitten', 'sitting', 5)).toBe(3);
    expect(editDistance('abc', 'abc', 0)).toBe(0);
    expect(editDistance('abcdef', 'a', 2)).toBe(3);
    expect(editDistance('nvidai', 'nvidia', 2)).toBe(1);
    expect(editDistance('microsfot', 'microsoft', 2)).toBe(1);
    expect(editDistance('ca', 'abc', 3)).toBe(3);
  });
});

describe('identifiers and scripts', () => {
  const scripts = new SearchIndex([
    { companyId: 'kap', name: 'Казатомпром АО', tickers: ['KAP'] },
    { companyId: 'yo', name: 'Ёлка Групп', tickers: ['YOLK'] },
    { companyId: 'ote', name: 'Οργανισμός Τηλεπικοινωνιών της Ελλάδος Α.Ε.', tickers: ['HTO'] },
    { companyId: 'tencent', name: '腾讯控股有限公司', tickers: ['0700'] },
    { companyId: 'toyota', name: 'トヨタ自動車株式会社', tickers: ['7203'] },
    { companyId: 'samsung', name: '삼성전자', tickers: ['005930'] },
    { companyId: 'aramco', name: 'أرامكو السعودية', tickers: ['2222'] },
    { companyId: 'poalim', name: 'בנק הפועלים בע״מ', tickers: ['POLI'] },
    { companyId: 'reliance', name: 'रिलायंस इंडस्ट्रीज लिमिटेड', tickers: ['RELIANCE'] },
    {
      companyId: 'apple',
      name: 'Apple Inc.',
      tickers: ['AAPL'],
      isins: ['US0378331005'],
      lei: 'HWUPKR0MPOU8FGXBT394',
      cik: '0000320193',
    },
    { companyId: 'isin-named', name: 'US0378331005 Trust', tickers: ['US03'] },
  ]);

  it('puts the company of an exact ISIN, LEI or CIK first', () => {
    expect(scripts.search('US0378331005')[0]).toBe('apple');
    expect(scripts.search('us0378331005')[0]).toBe('apple');
    expect(scripts.search('HWUPKR0MPOU8FGXBT394')).toEqual(['apple']);
    expect(scripts.search('320193')).toEqual(['apple']);
    expect(scripts.search('0000320193')).toEqual(['apple']);
  });

  it('finds names in their own script, whole, by prefix and inside a word', () => {
    expect(scripts.search('казатомпром')).toEqual(['kap']);
    expect(scripts.search('Казатом')).toEqual(['kap']);
    expect(scripts.search('елка')).toEqual(['yo']);
    expect(scripts.search('ΟΡΓΑΝΙΣΜΟΣ')).toEqual(['ote']);
    expect(scripts.search('οργανισμος τηλεπικοινωνιων')).toEqual(['ote']);
    expect(scripts.search('腾讯')).toEqual(['tencent']);
    expect(scripts.search('控股')).toEqual(['tencent']);
    expect(scripts.search('腾讯控股')).toEqual(['tencent']);
    expect(scripts.search('トヨタ')).toEqual(['toyota']);
    expect(scripts.search('自動車')).toEqual(['toyota']);
    expect(scripts.search('삼성')).toEqual(['samsung']);
    expect(scripts.search('أرامكو')).toEqual(['aramco']);
    expect(scripts.search('הפועלים')).toEqual(['poalim']);
    expect(scripts.search('रिलायंस')).toEqual(['reliance']);
  });

  it('keeps the marks that are letters: a Devanagari vowel sign is not an accent', () => {
    // Without its two vowel signs the word is not the name's: only two edits away, a near miss.
    expect(nameKey('रलायस')).not.toEqual(nameKey('रिलायंस'));
    expect(scripts.search('रलाय')).toEqual([]);
  });

  it('answers a query of punctuation alone with nothing', () => {
    expect(scripts.search('!?.,;:-_()[]{}'.repeat(8).slice(0, 100))).toEqual([]);
  });
});

describe('building in slices', () => {
  it('builds the same index while letting the event loop run', async () => {
    const entries = syntheticEntries(50_000);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    const sliced = await SearchIndex.build(entries);
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(1);
    const whole = new SearchIndex(entries);
    for (const q of ['a', 'ch', 'holdings', 'first mining', 'pharmaceutcals', entries[123]?.name ?? '']) {
      expect(sliced.search(q)).toEqual(whole.search(q));
    }
  });
});

describe('short queries', () => {
  it('answers one to three characters as a scan does, from the precomputed heads and past them', () => {
    // Enough companies that short prefixes, tickers and characters span dozens of lists (and get
    // a head), with limits below and above what a head holds.
    const entries = syntheticEntries(4_000, 3);
    const index = new SearchIndex(entries);
    const scan = new ReferenceScan(entries);
    const rng = random(5);
    const letter = () => 'abcdefghijklmnopqrstuvwxyzéбσ华'.charAt(Math.floor(rng() * 30));
    const queries = [...'abcdefghijklmnopqrstuvwxyz华б'];
    for (let i = 0; i < 60; i++) queries.push(letter() + letter(), letter() + letter() + letter());
    for (const q of [...queries, 'ou', 'AA', 'AB', 'ch', 'sh']) {
      for (const limit of [10, 150])
        expect({ q, limit, ids: index.search(q, limit) }).toEqual({ q, limit, ids: scan.search(q, limit) });
    }
  });
});

describe('typos, spacing, prominence and one answer per company', () => {
  const catalog = new SearchIndex([
    { companyId: 'nvidia', name: 'NVIDIA Corporation', tickers: ['NVDA'], prominence: 4 },
    { companyId: 'siemens', name: 'Siemens Aktiengesellschaft', tickers: ['SIE'], prominence: 3 },
    { companyId: 'jpm', name: 'JPMorgan Chase & Co.', tickers: ['JPM'], prominence: 6 },
    { companyId: 'morgan', name: 'Morgan Group Holding Co', tickers: ['MGHL'], prominence: 0 },
    { companyId: 'tmus', name: 'T-Mobile US, Inc.', tickers: ['TMUS'], prominence: 5 },
    { companyId: 'ko', name: 'Coca-Cola Company (The)', tickers: ['KO'], prominence: 3 },
    { companyId: 'kof', name: 'Coca-Cola FEMSA, S.A.B. de C.V.', tickers: ['KOF'], prominence: 4 },
    { companyId: 'eric', name: 'Telefonaktiebolaget LM Ericsson (publ)', tickers: ['ERIC-B'], prominence: 3 },
    { companyId: 'eric-small', name: 'Ericsson Mining Ltd', tickers: ['EMLX'], prominence: 0 },
    { companyId: 'sap', name: 'SAP SE', tickers: ['SAP'], prominence: 4 },
    { companyId: 'oreal', name: "L'Oréal S.A.", tickers: ['OR'], prominence: 4 },
    { companyId: 'bank', name: 'Bank Holdings', tickers: ['BKH'] },
    { companyId: 'twice', name: 'Twice Listed Inc.', tickers: ['TWI'] },
    { companyId: 'twice', name: 'Twice Listed Inc.', tickers: ['TWIC'] },
  ]);

  it('finds a word two edits away from five letters, one from three or four keeping the first letter', () => {
    expect(catalog.search('nvidai')).toEqual(['nvidia']);
    expect(catalog.search('siemnes')).toEqual(['siemens']);
    expect(catalog.search('nvdiia')[0]).toBe('nvidia');
    expect(catalog.search('bnak')).toEqual(['bank']);
    expect(catalog.search('bamk')).toEqual(['bank']);
    expect(catalog.search('nbak')).toEqual([]);
    expect(catalog.search('zq')).toEqual([]);
  });

  it('ranks one edit before two, and every near miss after exact and prefix matches', () => {
    const index = new SearchIndex([
      { companyId: 'two', name: 'Vintrix', tickers: ['VX'], prominence: 7 },
      { companyId: 'one', name: 'Vantrex', tickers: ['VT'] },
      { companyId: 'prefix', name: 'Ventrexal', tickers: ['VL'] },
    ]);
    expect(index.search('ventrex')).toEqual(['prefix', 'one', 'two']);
  });

  it('joins and splits words', () => {
    expect(catalog.search('jp morgan')[0]).toBe('jpm');
    expect(catalog.search('jpmorgan')[0]).toBe('jpm');
    expect(catalog.search('tmobile')[0]).toBe('tmus');
    expect(catalog.search('t mobile')[0]).toBe('tmus');
    expect(catalog.search('cocacola')[0]).toBe('ko');
    expect(catalog.search('s.a.p.')[0]).toBe('sap');
    expect(catalog.search("l'oreal")[0]).toBe('oreal');
    expect(catalog.search('l oreal')[0]).toBe('oreal');
  });

  it('puts the more prominent of equal matches first, never above a better match', () => {
    expect(catalog.search('coca cola')).toEqual(['ko', 'kof']);
    expect(catalog.search('ericsson')).toEqual(['eric', 'eric-small']);
    expect(catalog.search('morgan')).toEqual(['morgan', 'jpm']);
  });

  it('answers each company once', () => {
    expect(catalog.search('twice')).toEqual(['twice']);
    expect(catalog.search('tw')).toEqual(['twice']);
  });
});
