import { tickerKey } from '../ticker-key.js';
import { editDistance } from './edit-distance.js';
import { nameKey, words } from './normalize-name.js';
import { MAX_PROMINENCE } from './prominence.js';
import { respacings } from './respace.js';
import { SEARCH_LIMIT, type SearchEntry, Tier } from './search-index.js';
import { keepsAnEnd, typoBudget } from './typos.js';

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
  readonly level: number;
}

/** Every word but the last a whole name word, the last the start of one. */
function prefixMatch(e: IndexedEntry, ws: readonly string[]): boolean {
  const last = ws[ws.length - 1] ?? '';
  return ws.slice(0, -1).every((w) => e.keyWords.includes(w)) && e.keyWords.some((w) => w.startsWith(last));
}

/** The edits a name needs to match every query word within its budget; infinite if it cannot. */
function nearCost(e: IndexedEntry, qWords: readonly string[]): number {
  let total = 0;
  for (let i = 0; i < qWords.length; i++) {
    const q = qWords[i] as string;
    const budget = typoBudget(q);
    let best = Number.POSITIVE_INFINITY;
    for (const w of e.keyWords) {
      if (w === q || (i === qWords.length - 1 && w.startsWith(q))) best = 0;
      else if (budget > 0 && keepsAnEnd(q, w)) {
        const d = editDistance(q, w, budget);
        if (d <= budget) best = Math.min(best, d);
      }
    }
    if (best === Number.POSITIVE_INFINITY) return best;
    total += best;
  }
  return total;
}

function tierOf(
  e: IndexedEntry,
  upperQuery: string,
  qKey: string,
  qWords: readonly string[],
  spellings: readonly (readonly string[])[],
): Tier | undefined {
  if (e.upperTickers.includes(upperQuery)) return Tier.ExactTicker;
  if (qKey === '') return undefined;
  if (spellings.some((ws) => e.key === ws.join(' '))) return Tier.ExactName;
  if (spellings.some((ws) => ws.every((w) => e.allWords.includes(w)))) return Tier.WholeWords;
  if (spellings.some((ws) => prefixMatch(e, ws))) return Tier.Prefix;
  if (e.upperTickers.some((t) => t.startsWith(upperQuery))) return Tier.TickerPrefix;
  if (e.key.includes(qKey)) return Tier.Inside;
  const cost = nearCost(e, qWords);
  if (cost <= 1) return Tier.OneEdit;
  return cost < Number.POSITIVE_INFINITY ? Tier.Edits : undefined;
}

export class ReferenceScan {
  readonly #entries: readonly IndexedEntry[];
  readonly #vocabulary: readonly string[];

  constructor(entries: readonly SearchEntry[]) {
    this.#entries = entries.map((entry) => {
      const keyWords = nameKey(entry.name);
      return {
        entry,
        key: keyWords.join(' '),
        keyWords,
        allWords: words(entry.name),
        upperTickers: entry.tickers.map(tickerKey),
        level: MAX_PROMINENCE - Math.max(0, Math.min(MAX_PROMINENCE, Math.round(entry.prominence ?? 0))),
      };
    });
    this.#vocabulary = [...new Set(this.#entries.flatMap((e) => e.keyWords))];
  }

  /** Company ids, most relevant first, at most `limit`, each once; ties as {@link SearchIndex.search} breaks them. */
  search(query: string, limit = SEARCH_LIMIT): string[] {
    const upperQuery = tickerKey(query);
    const qWords = nameKey(query);
    const qKey = qWords.join(' ');
    const vocabulary = new Set(this.#vocabulary);
    const spellings = [
      qWords,
      ...respacings(qWords, {
        isWord: (w) => vocabulary.has(w),
        isPrefix: (p) => this.#vocabulary.some((w) => w.startsWith(p)),
      }),
    ];
    const hits: Array<{ tier: Tier; e: IndexedEntry }> = [];
    for (const e of this.#entries) {
      const tier = tierOf(e, upperQuery, qKey, qWords, spellings);
      if (tier !== undefined) hits.push({ tier, e });
    }
    hits.sort(
      (a, b) =>
        a.tier - b.tier ||
        a.e.level - b.e.level ||
        a.e.key.length - b.e.key.length ||
        (a.e.entry.name < b.e.entry.name ? -1 : a.e.entry.name > b.e.entry.name ? 1 : 0) ||
        (a.e.entry.companyId < b.e.entry.companyId ? -1 : 1),
    );
    const ids = [...new Set(hits.map((h) => h.e.entry.companyId))];
    return ids.slice(0, limit);
  }
}
