/**
 * Legal-form words dropped from the end of a name before matching, so "Siemens AG" and "Siemens"
 * are the same name. Written without dots or slashes because those are removed first.
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
]);

/** Suffix words that only count when something else stays, e.g. "The Company" keeps its words. */
const KEEP_AT_LEAST = 1;

/** Lower-case, accent-free words of a name or query, with punctuation gone. */
export function words(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[.'’/]/g, '')
    .replace(/&/g, ' and ')
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');
}

/** The words of a name without its trailing legal form (Inc, AG, S.A., plc …). */
export function nameKey(text: string): string[] {
  const w = words(text);
  while (w.length > KEEP_AT_LEAST && LEGAL_SUFFIXES.has(w[w.length - 1] ?? '')) w.pop();
  return w;
}
