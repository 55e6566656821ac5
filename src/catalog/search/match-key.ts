import { nameKey, words } from './normalize-name.js';

/**
 * A name without case, accents, punctuation, `&`/`and` and its trailing legal form. Stricter than
 * search, which reads "Coca-Cola Company (The)" as "coca cola": a source's bare "Coca-Cola" may be
 * a bottler (one cites Coca-Cola Europacific Partners' report), so a trailing "(The)" keeps the
 * name whole and such a name matches only itself.
 */
export function matchKey(name: string): string {
  const all = words(name).filter((w) => w !== 'and');
  if (all.at(-1) === 'the') return all.join(' ');
  return nameKey(all.join(' ')).join(' ');
}
