/**
 * Legal-form words dropped from the end of a name before matching, so "Siemens AG" and "Siemens"
 * are the same name. Written as {@link words} leaves them: lower case, no dots, no accents.
 */
const LEGAL_SUFFIXES = new Set([
  'aktiengesellschaft',
  'abp',
  'publ',
  'ltda',
  'kabushiki',
  'kaisha',
  'inc',
  'incorporated',
  'corp',
  'corporation',
  'co',
  'company',
  'ltd',
  'limited',
  'llc',
  'lp',
  'plc',
  'ag',
  'sa',
  'se',
  'nv',
  'bv',
  'spa',
  'sarl',
  'sas',
  'ab',
  'asa',
  'as',
  'oyj',
  'oy',
  'gmbh',
  'kgaa',
  'kg',
  'sab',
  'cv',
  'de',
  'bhd',
  'berhad',
  'tbk',
  'pcl',
  'pjsc',
  'jsc',
  'kk',
  // Written out: "Bankinter Sociedad Anonima" (as ESEF reports name it) is Bankinter, S.A.
  'sociedad',
  'sociedade',
  'anonima',
  'societe',
  'anonyme',
  // Cyrillic, Greek, Hebrew and Devanagari legal forms.
  'ао',
  'пао',
  'оао',
  'зао',
  'ооо',
  'ат',
  'αε',
  'ανωνυμη',
  'εταιρεια',
  'בעמ',
  'लिमिटेड',
]);

/**
 * Legal forms written without a space at the end of a Chinese or Japanese name ("腾讯控股有限公司"):
 * these scripts do not separate words, so the form is cut from the last word itself. Longest first.
 */
const GLUED_LEGAL_SUFFIXES = ['股份有限公司', '有限责任公司', '有限公司', '株式会社', '股份公司'];

/**
 * Words that go from the end of a name as legal forms do, though they are none: listings write
 * "Coca-Cola Company (The)", which is The Coca-Cola Company.
 */
const TRAILING_ARTICLES = new Set(['the']);

/** Suffix words only go when something else stays: "The Company" keeps its words. */
const KEEP_AT_LEAST = 1;

/**
 * Combining marks that are accents in the script of the letter they follow: Latin and Greek lose
 * theirs (é → e, ά → α); Cyrillic only the diaeresis (ё → е, й stays a letter of its own); Arabic
 * its vowel signs and tatweel; Hebrew its points. Marks of other scripts (Devanagari vowel signs,
 * the Japanese voicing mark) are letters in all but name and stay.
 */
function foldMarks(decomposed: string): string {
  let out = '';
  let base = 0;
  for (const ch of decomposed) {
    const c = ch.codePointAt(0) ?? 0;
    if (c >= 0x300 && c <= 0x36f) {
      const latinOrGreek = base < 0x250 || (base >= 0x1e00 && base <= 0x1fff) || (base >= 0x370 && base <= 0x3ff);
      const cyrillicDiaeresis = c === 0x308 && base >= 0x400 && base <= 0x4ff;
      if (latinOrGreek || cyrillicDiaeresis) continue;
    } else if ((c >= 0x64b && c <= 0x65f) || c === 0x670 || c === 0x640) continue;
    else if ((c >= 0x591 && c <= 0x5bd) || c === 0x5bf || c === 0x5c1 || c === 0x5c2 || c === 0x5c4 || c === 0x5c5 || c === 0x5c7)
      continue;
    else base = c;
    out += ch;
  }
  return out;
}

/**
 * Lower-case, accent-free words of a name or query, in any script. Dots, apostrophes and slashes
 * vanish inside words ("S.A." is "sa", "O'Reilly" "oreilly", Hebrew "בע״מ" "בעמ"); "&" is "and";
 * any other character that is neither letter, mark nor digit separates words. Chinese and Japanese
 * names come out as one word per run of characters; the index finds text inside them.
 */
export function words(text: string): string[] {
  return latinWords(text) ?? scriptWords(text);
}

/** The general path of {@link words}, which the Latin fast path must agree with. */
export function scriptWords(text: string): string[] {
  return foldMarks(text.normalize('NFKD'))
    .normalize('NFC')
    .toLowerCase()
    .replace(/ς/g, 'σ')
    .replace(/ß/g, 'ss')
    .replace(/[.'’/״׳]/g, '')
    .replace(/&/g, ' and ')
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .filter((w) => w !== '');
}

const SEPARATOR = 0;
const VANISH = 1;
const AND = 2;
/** Needs the general path (e.g. "½", which is two numbers). */
const COMPLEX = 3;
/**
 * What {@link scriptWords} makes of each character below U+0250 (Latin with its accents), worked
 * out once from that function itself, so the hand loop of {@link latinWords} agrees with it: most
 * names are Latin, and a catalog build splits millions of them.
 */
const LATIN = Array.from({ length: 0x250 }, (_, c): string | number => {
  const ch = String.fromCharCode(c);
  if (ch === '&') return AND;
  if (ch === '.' || ch === "'" || ch === '/') return VANISH;
  // Between two letters, so a character that decomposes into letter and separator (Ŀ) shows it.
  const w = scriptWords(`a${ch}a`);
  if (w.length === 2 && w[0] === 'a' && w[1] === 'a') return SEPARATOR;
  const middle = w.length === 1 ? (w[0] as string).slice(1, -1) : '';
  return middle !== '' && scriptWords(ch).join() === middle ? middle : COMPLEX;
});

function latinWords(text: string): string[] | undefined {
  const out: string[] = [];
  let word = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x250) return undefined;
    const t = LATIN[c] as string | number;
    if (typeof t === 'string') word += t;
    else if (t === VANISH) continue;
    else if (t === COMPLEX) return undefined;
    else {
      if (word !== '') out.push(word);
      word = '';
      if (t === AND) out.push('and');
    }
  }
  if (word !== '') out.push(word);
  return out;
}

/** The words of a name without its trailing legal form (Inc, AG, S.A., plc, 有限公司 …). */
export function nameKey(text: string): string[] {
  return withoutLegalForm(words(text));
}

/** {@link nameKey} of words already split: a copy without the trailing legal form. */
export function withoutLegalForm(all: readonly string[]): string[] {
  const w = [...all];
  for (;;) {
    const end = w[w.length - 1] ?? '';
    if (w.length <= KEEP_AT_LEAST || !(LEGAL_SUFFIXES.has(end) || TRAILING_ARTICLES.has(end))) break;
    w.pop();
  }
  const last = w[w.length - 1];
  if (last !== undefined) {
    const glued = GLUED_LEGAL_SUFFIXES.find((s) => last.length > s.length && last.endsWith(s));
    if (glued !== undefined) w[w.length - 1] = last.slice(0, -glued.length);
  }
  return w;
}
