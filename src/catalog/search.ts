import { nameKey, words } from './normalize-name.js';

/** What the search ranks: one company with its name and every ticker it trades under. */
export interface SearchEntry {
  readonly companyId: string;
  readonly name: string;
  readonly tickers: readonly string[];
}

interface IndexedEntry {
  readonly entry: SearchEntry;
  /** Name words without the legal form, joined by single spaces. */
  readonly key: string;
  readonly keyWords: readonly string[];
  /** Every word of the name, legal form included. */
  readonly allWords: readonly string[];
  readonly upperTickers: readonly string[];
}

/**
 * Match tiers, best first: exact ticker, exact name, every query word a whole word of the name,
 * name or word prefix, ticker prefix, inside a word, then fuzzy (small edit distance).
 */
export const Tier = { ExactTicker: 0, ExactName: 1, WholeWords: 2, Prefix: 3, TickerPrefix: 4, Inside: 5, Fuzzy: 6 } as const;
export type Tier = (typeof Tier)[keyof typeof Tier];

export const SEARCH_LIMIT = 10;

/** Levenshtein distance, abandoned once it must exceed `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const v = Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      row.push(v);
      if (v < best) best = v;
    }
    if (best > max) return max + 1;
    prev = row;
  }
  return prev[b.length] ?? max + 1;
}

function fuzzyBudget(length: number): number {
  if (length < 4) return 0;
  return length < 8 ? 1 : 2;
}

function tierOf(e: IndexedEntry, upperQuery: string, qKey: string, qWords: readonly string[]): Tier | undefined {
  if (e.upperTickers.includes(upperQuery)) return Tier.ExactTicker;
  if (qKey === '') return undefined;
  if (e.key === qKey) return Tier.ExactName;
  if (qWords.every((w) => e.allWords.includes(w))) return Tier.WholeWords;
  if (e.key.startsWith(qKey) || e.keyWords.some((w) => w.startsWith(qKey))) return Tier.Prefix;
  const lastWord = qWords[qWords.length - 1] ?? '';
  const leading = qWords.slice(0, -1);
  if (qWords.length > 1 && leading.every((w) => e.keyWords.includes(w)) && e.keyWords.some((w) => w.startsWith(lastWord))) {
    return Tier.Prefix;
  }
  if (e.upperTickers.some((t) => t.startsWith(upperQuery))) return Tier.TickerPrefix;
  if (e.key.includes(qKey)) return Tier.Inside;
  const budget = fuzzyBudget(qKey.length);
  if (budget > 0) {
    if (editDistance(qKey, e.key, budget) <= budget) return Tier.Fuzzy;
    if (qWords.length === 1 && e.keyWords.some((w) => editDistance(qKey, w, budget) <= budget)) return Tier.Fuzzy;
  }
  return undefined;
}

/** An immutable, in-memory search index over every company; rebuilt when the catalog changes. */
export class SearchIndex {
  readonly #entries: readonly IndexedEntry[];

  constructor(entries: readonly SearchEntry[]) {
    this.#entries = entries.map((entry) => {
      const keyWords = nameKey(entry.name);
      return {
        entry,
        key: keyWords.join(' '),
        keyWords,
        allWords: words(entry.name),
        upperTickers: entry.tickers.map((t) => t.toUpperCase()),
      };
    });
  }

  /** Company ids, most relevant first, at most `limit`; ties go to the shorter, then earlier name. */
  search(query: string, limit = SEARCH_LIMIT): string[] {
    const upperQuery = query.trim().toUpperCase();
    const qWords = nameKey(query);
    const qKey = qWords.join(' ');
    const rawWords = words(query);
    const effectiveWords = qWords.length > 0 ? qWords : rawWords;
    const hits: Array<{ tier: Tier; e: IndexedEntry }> = [];
    for (const e of this.#entries) {
      const tier = tierOf(e, upperQuery, qKey, effectiveWords);
      if (tier !== undefined) hits.push({ tier, e });
    }
    hits.sort(
      (a, b) =>
        a.tier - b.tier ||
        a.e.key.length - b.e.key.length ||
        (a.e.entry.name < b.e.entry.name ? -1 : a.e.entry.name > b.e.entry.name ? 1 : 0) ||
        (a.e.entry.companyId < b.e.entry.companyId ? -1 : 1),
    );
    return hits.slice(0, limit).map((h) => h.e.entry.companyId);
  }
}
