import { prominence } from '../catalog/search/prominence.js';
import type { SearchEntry } from '../catalog/search/search-index.js';
import { random } from './synthetic-ids.js';

/**
 * Generated companies for measuring search at catalog scale. Real catalogs have a large vocabulary
 * with a few very common words ("China", "Holdings", "Bank") and a long tail of rare ones (family
 * and place names): names here draw made-up words from a Zipf-like distribution over a vocabulary
 * that grows with the catalog, add trade and legal-form words, and put one name in twenty in
 * another script.
 */
const COMMON = [
  'China',
  'First',
  'American',
  'National',
  'Global',
  'United',
  'Pacific',
  'General',
  'International',
  'Capital',
  'Shanghai',
  'Shenzhen',
  'Bank',
  'New',
  'Western',
  'Royal',
  'Grupo',
  'Banco',
  'Asia',
  'Euro',
];
const TRADES = [
  'Mining',
  'Holdings',
  'Technologies',
  'Energy',
  'Pharmaceuticals',
  'Bancorp',
  'Resources',
  'Industries',
  'Group',
  'Financial',
  'Systems',
  'Logistics',
  'Foods',
  'Retail',
  'Properties',
  'Insurance',
  'Semiconductor',
  'Motors',
  'Biosciences',
  'Electric',
  'Chemicals',
  'Steel',
  'Airlines',
  'Software',
  'Media',
  'Telecom',
  'Shipping',
];
const LEGAL = [
  'Inc.',
  'Corp.',
  'Ltd.',
  'AG',
  'S.A.',
  'plc',
  'N.V.',
  'Co., Ltd.',
  'SE',
  'Limited',
  'Corporation',
  'Oyj',
  'ASA',
  '',
];
const ONSETS = [
  'b',
  'c',
  'd',
  'f',
  'g',
  'h',
  'k',
  'l',
  'm',
  'n',
  'p',
  'r',
  's',
  't',
  'v',
  'w',
  'z',
  'br',
  'cr',
  'st',
  'tr',
  'ch',
  'sh',
  'gr',
  'pl',
  'th',
];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ai', 'ei', 'ou', 'ia', 'y', 'é', 'ü'];
const CODAS = ['', '', 'n', 'r', 's', 'l', 'x', 'nd', 'rt', 'ck', 'm'];
const CYRILLIC = 'абвгдежзиклмнопрстуфхцчшщэюя';
const GREEK = 'αβγδεζηθικλμνξοπρστυφχψω';
const HAN = '华国中电信银行科技能源实业集团控股发展投资建设汽车医药化工钢铁航空海运证券保险机械新材料';
const ARABIC = 'ابتثجحخدذرزسشصضطظعغفقكلمنهوي';

function madeUpWord(rng: () => number): string {
  const syllables = 2 + Math.floor(rng() * 2);
  let w = '';
  for (let i = 0; i < syllables; i++) {
    w += ONSETS[Math.floor(rng() * ONSETS.length)] ?? '';
    w += VOWELS[Math.floor(rng() * VOWELS.length)] ?? '';
    if (i === syllables - 1 || rng() < 0.3) w += CODAS[Math.floor(rng() * CODAS.length)] ?? '';
  }
  return w.charAt(0).toUpperCase() + w.slice(1);
}

/** A small company named after a word of a real name: "Ericsson Mining Ltd.". */
function namesake(word: string, rng: () => number): string {
  const trade = TRADES[Math.floor(rng() * TRADES.length)] ?? '';
  const legal = LEGAL[Math.floor(rng() * LEGAL.length)] ?? '';
  return `${word.charAt(0).toUpperCase()}${word.slice(1)} ${trade} ${legal}`.trim();
}

function scriptWord(rng: () => number, alphabet: string, length: number): string {
  let w = '';
  for (let i = 0; i < length; i++) w += alphabet.charAt(Math.floor(rng() * alphabet.length));
  return w;
}

/** A ticker of letters, distinct for every n; from 475254 on, five letters or more (fewer than most real ones). */
function ticker(n: number): string {
  let t = '';
  let x = n;
  do {
    t = String.fromCharCode(65 + (x % 26)) + t;
    x = Math.floor(x / 26) - 1;
  } while (x >= 0);
  return t;
}

/**
 * The markets of a generated company, in the mix of a catalog grown past the listed companies to
 * every LEI holder (design §12): most hold no listing or trade over the counter or on a small
 * exchange; about a tenth list on an exchange of design §1.3's order, a twentieth on one of its
 * first five, and one in two hundred on several markets.
 */
function markets(rng: () => number): string[] {
  const r = rng();
  if (r < 0.55) return [];
  if (r < 0.7) return ['OTCM'];
  if (r < 0.8) return ['XWAR'];
  if (r < 0.88) return ['XSTO'];
  if (r < 0.945) return ['XLON'];
  if (r < 0.995) return ['XNGS'];
  return r < 0.999 ? ['XNYS', 'XLON'] : ['XNYS', 'XLON', 'XETR'];
}

export interface SyntheticOptions {
  /**
   * Words of real names that some generated names borrow as their first word: the namesakes
   * ("Ericsson Mining Ltd.") a large company must still rank above.
   */
  readonly borrowed?: readonly string[];
  /** The share of generated names that borrow one of those words; 0.02 unless given. */
  readonly borrowing?: number;
}

/**
 * `count` companies with realistic names, tickers, identifiers and prominence, the same for the
 * same seed. Prominence and borrowed words are drawn from a second generator, so every name that
 * borrows no word is the one the same seed gave before either existed (the benchmark's names).
 */
export function syntheticEntries(count: number, seed = 7, options: SyntheticOptions = {}): SearchEntry[] {
  const rng = random(seed);
  const extra = random(seed + 1);
  const borrowed = options.borrowed ?? [];
  const borrowing = options.borrowing ?? 0.02;
  const vocabulary = Array.from({ length: Math.max(1000, Math.floor(count / 8)) }, () => madeUpWord(rng));
  const zipf = () => vocabulary[Math.floor(vocabulary.length * rng() ** 2.5)] as string;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rng() * list.length)] as T;
  const out: SearchEntry[] = [];
  for (let i = 0; i < count; i++) {
    const r = rng();
    let name: string;
    if (r < 0.02) name = `${scriptWord(rng, CYRILLIC, 5 + Math.floor(rng() * 6))} ${pick(['Групп', 'Банк', 'Энерго'])} ПАО`;
    else if (r < 0.03) name = `${scriptWord(rng, GREEK, 5 + Math.floor(rng() * 6))} Α.Ε.`;
    else if (r < 0.045) name = `${scriptWord(rng, HAN, 2 + Math.floor(rng() * 4))}${pick(['股份有限公司', '有限公司', '集团'])}`;
    else if (r < 0.05) name = `${scriptWord(rng, ARABIC, 4 + Math.floor(rng() * 5))} ${scriptWord(rng, ARABIC, 5)}`;
    else {
      const first = rng() < 0.15 ? pick(COMMON) : zipf();
      const second = rng() < 0.35 ? ` ${zipf()}` : '';
      const trade = rng() < 0.8 ? ` ${pick(TRADES)}` : '';
      const legal = pick(LEGAL);
      name = `${first}${second}${trade}${legal === '' ? '' : ` ${legal}`}`;
    }
    const id = `ffffffff-0000-4000-8000-${String(i).padStart(12, '0')}`;
    const borrows = borrowed.length > 0 && extra() < borrowing;
    const word = borrowed[Math.floor(extra() * borrowed.length)] ?? '';
    out.push({
      companyId: id,
      name: borrows ? namesake(word, extra) : name,
      prominence: prominence({ micCodes: markets(extra) }),
      tickers: [ticker(i + 475_254)],
      isins: rng() < 0.9 ? [`XS${String(i).padStart(9, '0')}7`] : [],
      lei: rng() < 0.6 ? `5299${String(i).padStart(14, '0')}42` : null,
    });
  }
  return out;
}
