import { editDistance } from './edit-distance.js';
import { nameKey, words } from './normalize-name.js';
import { fuzzyBudget, SEARCH_LIMIT, type SearchEntry, Tier } from './search-index.js';

/**
 * The ranking as a scan over every company: the behaviour the index must reproduce, kept as the
 * oracle of the index's property tests and as the "before" of the relevance report. Identifier
 * queries (ISIN, LEI, CIK) are the index's alone.
 */

interface IndexedEntry {
  readonly entry: SearchEntry;
  /** Name words without the legal form, joined by single spaces. */
  readonly key: string;
  readonly keyWords: readonly string[];
  /** Every word of the name, legal form included. */
  readonly allWords: readonly string[];
  readonly upperTickers: readonly string[];
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

export class ReferenceScan {
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
