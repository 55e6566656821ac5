import { drain, PostingsBuilder, type PostingsTable } from './postings.js';
import { HEAD_FROM_LISTS, HEAD_LENGTH, ShortPrefixes, withHead } from './short-prefixes.js';
import { keepsFirstLetter, type NearWord, nearWords, reversed, typoBudget } from './typos.js';

const START = '\u0002';
const END = '\u0003';

/**
 * The distinct words of every name, sorted, each with the entries holding it. The sorted order
 * answers prefixes by binary search; character unigrams and bigrams over the words (not over the
 * names: the vocabulary is far smaller than the catalog) answer "inside a word" and near misses.
 * Bigrams are also what finds text inside Chinese or Japanese names, which have no spaces.
 */
export class Vocabulary {
  /** Word number → entries holding the word; word numbers follow the words' sorted order. */
  readonly entries: PostingsTable;
  /** Character or padded bigram → word numbers holding it. */
  readonly #grams: PostingsTable;
  /** The words by prefix, with the first entries of the short prefixes worked out. */
  readonly #prefixes: ShortPrefixes;
  /**
   * For characters and bigrams held by many words (in a large catalog, "o" by tens of thousands):
   * the first entries of the union of those words' entries, so a query of one or two characters
   * found only inside words reads a short list.
   */
  readonly #gramHeads = new Map<string, Int32Array>();
  /** The words written backwards, sorted, and each one's word number: near misses found from the end. */
  readonly #backwards: string[];
  readonly #backwardNumbers: Int32Array;

  constructor(entries: PostingsTable) {
    this.entries = entries;
    const grams = new PostingsBuilder();
    const words = entries.keys;
    for (let n = 0; n < words.length; n++) {
      const padded = START + (words[n] as string) + END;
      for (let i = 0; i + 1 < padded.length; i++) {
        if (i > 0) grams.add(padded.charAt(i), n);
        grams.add(padded.slice(i, i + 2), n);
      }
    }
    this.#grams = drain(grams.build());
    this.#prefixes = new ShortPrefixes(entries);
    const order = words.map((w, n) => ({ w: reversed(w), n })).sort((a, b) => (a.w < b.w ? -1 : a.w > b.w ? 1 : 0));
    this.#backwards = order.map((o) => o.w);
    this.#backwardNumbers = Int32Array.from(order, (o) => o.n);
    for (let g = 0; g < this.#grams.lists; g++) {
      const gram = this.#grams.keys[g] as string;
      if (this.#grams.length(g) < HEAD_FROM_LISTS || gram.includes(START) || gram.includes(END)) continue;
      this.#gramHeads.set(gram, entries.head(this.#grams.view(g), HEAD_LENGTH));
    }
  }

  get size(): number {
    return this.entries.lists;
  }

  /** Word numbers [from, to) of the words starting with `prefix`. */
  prefixRange(prefix: string): [number, number] {
    return this.#prefixes.range(prefix);
  }

  /** Entries with a word starting with `prefix`, ascending, from entry `fromId` on. */
  entriesWithPrefix(prefix: string, fromId = 0): Iterable<number> {
    return this.#prefixes.entries(prefix, fromId);
  }

  /** Entries with a word holding `text` anywhere, ascending, from entry `fromId` on. */
  entriesContaining(text: string, fromId = 0): Iterable<number> {
    const head = text.length <= 2 ? this.#gramHeads.get(text) : undefined;
    return withHead(head, fromId, (next) => this.entries.union(this.containing(text), next));
  }

  /** Numbers of the words holding `text` anywhere, ascending. */
  containing(text: string): number[] {
    if (text.length === 0) return [];
    const words = this.entries.keys;
    if (text.length === 1) return [...this.#grams.ids(this.#grams.number(text))];
    // The two rarest bigrams narrow the candidates; `includes` confirms.
    const lists: number[] = [];
    for (let i = 0; i + 1 < text.length; i++) {
      const l = this.#grams.number(text.slice(i, i + 2));
      if (l === undefined) return [];
      lists.push(l);
    }
    lists.sort((a, b) => this.#grams.length(a) - this.#grams.length(b));
    const first = this.#grams.view(lists[0] as number);
    const second = lists[1];
    const out: number[] = [];
    for (const n of first) {
      if (second !== undefined && !this.#grams.holds(second, n)) continue;
      if ((words[n] as string).includes(text)) out.push(n);
    }
    return out;
  }

  /**
   * The words near a query word ({@link typoBudget}, {@link keepsAnEnd}), ascending by number: a
   * short word's among the words sharing its first letter; a longer word's among those sharing its
   * first letter, then among those sharing its last (the words read backwards), so each walk
   * reads one letter's words, not the vocabulary.
   */
  near(word: string): NearWord[] {
    const budget = typoBudget(word);
    if (budget === 0) return [];
    const forward = nearWords(this.entries.keys, word, budget, true);
    if (keepsFirstLetter(word)) return forward;
    const found = new Map(forward.map((f) => [f.word, f]));
    for (const b of nearWords(this.#backwards, reversed(word), budget, true)) {
      const n = this.#backwardNumbers[b.word] as number;
      if (!found.has(n)) found.set(n, { word: n, distance: b.distance });
    }
    return [...found.values()].sort((a, b) => a.word - b.word);
  }
}
