import { editDistance } from './edit-distance.js';
import { cikKey, type IndexOptions, indexParts } from './index-parts.js';
import { nameKey } from './normalize-name.js';
import { drain, type PostingsTable, range } from './postings.js';
import type { ShortPrefixes } from './short-prefixes.js';
import type { Vocabulary } from './vocabulary.js';

/** What the search ranks: one company with its name, every ticker it trades under, and its identifiers. */
export interface SearchEntry {
  readonly companyId: string;
  readonly name: string;
  readonly tickers: readonly string[];
  readonly isins?: readonly string[];
  readonly lei?: string | null;
  /** SEC Central Index Key, digits with or without leading zeros. */
  readonly cik?: string | null;
}

/**
 * Match tiers, best first: an exact identifier (ISIN, LEI, CIK), exact ticker, exact name, every
 * query word a whole word of the name, name or word prefix, ticker prefix, inside a word, then
 * fuzzy (an edit for 4 to 7 characters, two from 8).
 */
export const Tier = {
  Identifier: -1,
  ExactTicker: 0,
  ExactName: 1,
  WholeWords: 2,
  Prefix: 3,
  TickerPrefix: 4,
  Inside: 5,
  Fuzzy: 6,
} as const;
export type Tier = (typeof Tier)[keyof typeof Tier];

export const SEARCH_LIMIT = 10;

export function fuzzyBudget(length: number): number {
  if (length < 4) return 0;
  return length < 8 ? 1 : 2;
}

interface Query {
  readonly upper: string;
  readonly words: readonly string[];
  readonly key: string;
}

/**
 * An immutable in-memory index over every company; built off the request path and swapped whole
 * when the catalog changes. Entries are numbered in the order ties are broken (shorter name key,
 * then name, then company id), so within a tier the smallest numbers win and every tier is read
 * in ascending order until the result is full: a query touches the postings it needs, not the
 * catalog.
 */
export class SearchIndex {
  readonly #ids: string[];
  readonly #keys: string[];
  /** Entries are numbered by key length first: the first entry of each length, and one past the last. */
  readonly #lengthStarts: Int32Array;
  /** ISIN, LEI and CIK → company id, unless the caller resolves identifiers itself. */
  readonly #identifiers: ReadonlyMap<string, string>;
  readonly #identify: ((identifier: string) => string | undefined) | undefined;
  /** Upper-case tickers, sorted so a ticker prefix is a range, with the heads of short prefixes. */
  readonly #tickers: ShortPrefixes;
  /** The words of the names without their legal forms. */
  readonly #vocabulary: Vocabulary;
  /** The legal-form words cut from the ends of names: with the vocabulary, every word of every name. */
  readonly #legalForms: PostingsTable;

  constructor(entries: readonly SearchEntry[], options: IndexOptions = {}, parts = drain(indexParts(entries, options))) {
    this.#identify = options.identify;
    this.#ids = parts.ids;
    this.#keys = parts.keys;
    this.#lengthStarts = parts.lengthStarts;
    this.#identifiers = parts.identifiers;
    this.#tickers = parts.tickerPrefixes;
    this.#vocabulary = parts.vocabulary;
    this.#legalForms = parts.legalForms;
  }

  /**
   * The same index, built in slices between which the event loop runs, so a server rebuilding it
   * after an import keeps answering (from the old index) meanwhile.
   */
  static async build(entries: readonly SearchEntry[], options: IndexOptions = {}): Promise<SearchIndex> {
    const steps = indexParts(entries, options);
    for (let step = steps.next(); ; step = steps.next()) {
      if (step.done === true) return new SearchIndex(entries, options, step.value);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** The company an exact ISIN, LEI or CIK names. */
  #identified(trimmed: string): string | undefined {
    const upper = trimmed.toUpperCase();
    const cik = cikKey(trimmed);
    if (this.#identify !== undefined) return this.#identify(upper);
    return this.#identifiers.get(upper) ?? (cik === undefined ? undefined : this.#identifiers.get(cik));
  }

  get size(): number {
    return this.#ids.length;
  }

  /** Company ids, most relevant first, at most `limit`; ties go to the shorter, then earlier name. */
  search(query: string, limit = SEARCH_LIMIT): string[] {
    const trimmed = query.trim();
    const qWords = nameKey(query);
    const q: Query = { upper: trimmed.toUpperCase(), words: qWords, key: qWords.join(' ') };
    const found: number[] = [];
    const taken = new Set<number>();
    let skipped: string | undefined;
    const room = () => limit - (skipped === undefined ? 0 : 1);
    const collect: Collect = (candidates, accept) => {
      for (const id of candidates) {
        if (taken.has(id) || (accept !== undefined && !accept(id))) continue;
        taken.add(id);
        if (this.#ids[id] === skipped) continue;
        found.push(id);
        if (found.length >= room()) return true;
      }
      return false;
    };
    // An identifier's company goes first; it keeps its place, not a second one, in the tiers after.
    const identified = trimmed === '' ? undefined : this.#identified(trimmed);
    if (identified !== undefined) {
      skipped = identified;
      if (limit <= 1) return limit <= 0 ? [] : [identified];
    }
    // Each tier stops the search once the answer is full.
    void (
      collect(this.#tickers.table.ids(this.#tickers.table.number(q.upper))) ||
      (q.key !== '' &&
        (this.#exactNameTier(q, collect) ||
          this.#wholeWordTier(q, collect) ||
          this.#prefixTier(q, collect) ||
          collect(this.#tickers.entries(q.upper)) ||
          this.#insideTier(q, collect) ||
          this.#fuzzyTier(q, collect)))
    );
    const answer = found.map((id) => this.#ids[id] as string);
    return skipped === undefined ? answer : [skipped, ...answer];
  }

  /** Entries are numbered by key length first, so the names as long as the query come first. */
  #exactNameTier(q: Query, collect: Collect): boolean {
    const table = this.#vocabulary.entries;
    const [rarest] = this.#lists(table, q.words) ?? [];
    if (rarest === undefined) return false;
    const length = q.key.length;
    const ids = table.ids(rarest, this.#firstOfLength(length), this.#firstOfLength(length + 1));
    return collect(ids, (id) => this.#keys[id] === q.key);
  }

  /** Every query word a whole word of the name, legal forms included. */
  #wholeWordTier(q: Query, collect: Collect): boolean {
    const vocabulary = this.#vocabulary.entries;
    const legal = this.#legalForms;
    const lists: { word?: number; legal?: number; size: number }[] = [];
    for (const w of q.words) {
      const word = vocabulary.number(w);
      const form = legal.number(w);
      if (word === undefined && form === undefined) return false;
      const size = (word === undefined ? 0 : vocabulary.length(word)) + (form === undefined ? 0 : legal.length(form));
      lists.push({ ...(word === undefined ? {} : { word }), ...(form === undefined ? {} : { legal: form }), size });
    }
    lists.sort((a, b) => a.size - b.size);
    const [first, ...rest] = lists;
    if (first === undefined) return false;
    const holds = (l: { word?: number; legal?: number }, id: number) =>
      (l.word !== undefined && vocabulary.holds(l.word, id)) || (l.legal !== undefined && legal.holds(l.legal, id));
    const stream =
      first.legal === undefined
        ? vocabulary.ids(first.word)
        : first.word === undefined
          ? legal.ids(first.legal)
          : mergeAscending(vocabulary.ids(first.word), legal.ids(first.legal));
    return collect(stream, (id) => rest.every((l) => holds(l, id)));
  }

  #prefixTier(q: Query, collect: Collect): boolean {
    const last = q.words[q.words.length - 1] ?? '';
    if (q.words.length === 1) return collect(this.#wordPrefixes(last));
    const table = this.#vocabulary.entries;
    const leading = this.#lists(table, q.words.slice(0, -1));
    if (leading === undefined) return false;
    const [shortest, ...rest] = leading;
    if (shortest === undefined) return false;
    // A name here holds every leading word whole and a word starting with the last one: read the
    // smaller of the two candidate sets, the rarest leading word's entries or the entries of the
    // words starting with the last (for "shenzhen tryha" the few names with a word starting with
    // "tryha"; for "first m" the names holding "first").
    const [from, to] = this.#vocabulary.prefixRange(last);
    const rarest = table.length(shortest);
    if (table.total(from, to, rarest) < rarest) {
      return collect(this.#wordPrefixes(last), (id) => leading.every((l) => table.holds(l, id)));
    }
    const spaced = ` ${last}`;
    return collect(table.ids(shortest), (id) => {
      if (!rest.every((l) => table.holds(l, id))) return false;
      const key = this.#keys[id] as string;
      return key.startsWith(last) || key.includes(spaced);
    });
  }

  #insideTier(q: Query, collect: Collect): boolean {
    const table = this.#vocabulary.entries;
    const from = this.#firstOfLength(q.key.length);
    if (q.words.length === 1) return collect(this.#vocabulary.entriesContaining(q.key, from));
    // Several words: a name holding the query holds its middle words whole, a word ending with its
    // first word and one starting with its last. Read the smallest of these candidate sets.
    const middle = this.#lists(table, q.words.slice(1, -1));
    if (middle === undefined) return false;
    const [prefixFrom, prefixTo] = this.#vocabulary.prefixRange(q.words[q.words.length - 1] ?? '');
    const options = [
      ...middle.slice(0, 1).map((n) => [n]),
      range(prefixFrom, prefixTo),
      this.#vocabulary.containing(q.words[0] ?? ''),
    ];
    const size = (lists: number[]) => lists.reduce((sum, n) => sum + table.length(n), 0);
    const best = options.sort((a, b) => size(a) - size(b))[0] ?? [];
    return collect(table.union(best, from), (id) => (this.#keys[id] as string).includes(q.key));
  }

  #fuzzyTier(q: Query, collect: Collect): boolean {
    const budget = fuzzyBudget(q.key.length);
    if (budget === 0) return false;
    const table = this.#vocabulary.entries;
    if (q.words.length === 1) return collect(table.union(this.#vocabulary.near(q.key, budget)));
    // A name within `budget` edits of the query is within `budget` of its length, and holds a word
    // within `budget` edits of each query word (unless the edits fall on spaces between words): the
    // anchor is the rarest word long enough for the bigram filter, an unknown word rarest of all.
    const filterable = q.words.filter((w) => w.length + 1 - 2 * budget >= 2);
    const frequency = (w: string) => {
      const n = table.number(w);
      return n === undefined ? 0 : table.length(n);
    };
    const longest = filterable.sort((a, b) => frequency(a) - frequency(b) || b.length - a.length)[0] ?? q.words[0] ?? '';
    const length = q.key.length;
    const from = this.#firstOfLength(length - budget);
    const to = this.#firstOfLength(length + budget + 1);
    const share = Math.floor(budget / q.words.length);
    const near =
      filterable.length > 0 || share === 0
        ? this.#vocabulary.near(longest, budget)
        : q.words.flatMap((w) => this.#vocabulary.near(w, share));
    return collect(table.union(near, from, to), (id) => editDistance(q.key, this.#keys[id] as string, budget) <= budget);
  }

  /** The first entry whose name key is at least `length` long (entries are numbered by key length first). */
  #firstOfLength(length: number): number {
    if (length <= 0) return 0;
    return length >= this.#lengthStarts.length ? this.#ids.length : (this.#lengthStarts[length] as number);
  }

  /** Entries with a name word (legal form excluded) starting with `prefix`, ascending. */
  #wordPrefixes(prefix: string): Iterable<number> {
    return this.#vocabulary.entriesWithPrefix(prefix);
  }

  /** The list of each word in a table, shortest first; undefined if a word has none. */
  #lists(table: PostingsTable, ws: readonly string[]): number[] | undefined {
    const lists: number[] = [];
    for (const w of ws) {
      const n = table.number(w);
      if (n === undefined) return undefined;
      lists.push(n);
    }
    return lists.sort((a, b) => table.length(a) - table.length(b));
  }
}

/** Two ascending id streams as one, without duplicates. */
function* mergeAscending(a: Iterator<number> | Iterable<number>, b: Iterable<number>): Generator<number> {
  const ia = Symbol.iterator in a ? a[Symbol.iterator]() : a;
  const ib = b[Symbol.iterator]();
  let x = ia.next();
  let y = ib.next();
  while (!x.done || !y.done) {
    if (y.done || (!x.done && x.value < y.value)) {
      yield x.value as number;
      x = ia.next();
    } else if (x.done || y.value < x.value) {
      yield y.value;
      y = ib.next();
    } else {
      yield x.value;
      x = ia.next();
      y = ib.next();
    }
  }
}

type Collect = (candidates: Iterable<number>, accept?: (id: number) => boolean) => boolean;
