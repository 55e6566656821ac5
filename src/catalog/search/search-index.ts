import { tickerKey } from '../ticker-key.js';
import { editDistance } from './edit-distance.js';
import { cikKey, type IndexOptions, indexParts } from './index-parts.js';
import { nameKey } from './normalize-name.js';
import { drain, lowerBound, type PostingsTable, range } from './postings.js';
import { MAX_PROMINENCE } from './prominence.js';
import { respacings } from './respace.js';
import type { SearchEntry } from './search-entry.js';
import type { ShortPrefixes } from './short-prefixes.js';
import { keepsAnEnd, typoBudget } from './typos.js';
import type { Vocabulary } from './vocabulary.js';

export type { SearchEntry };

/**
 * Match tiers, best first: an exact identifier (ISIN, LEI, CIK), exact ticker, exact name, every
 * query word a whole word of the name, name or word prefix, ticker prefix, inside a word, the
 * query's words spaced otherwise ("jp morgan" for "JPMorgan": the whole name so spaced, then as a
 * prefix), then near misses: every query word
 * a name word within its typo budget ({@link typoBudget}), one edit in all before two or more.
 */
export const Tier = {
  Identifier: -1,
  ExactTicker: 0,
  ExactName: 1,
  WholeWords: 2,
  Prefix: 3,
  TickerPrefix: 4,
  Inside: 5,
  OneEdit: 6,
  Edits: 7,
} as const;
export type Tier = (typeof Tier)[keyof typeof Tier];

export const SEARCH_LIMIT = 10;

interface Query {
  /** The query as a ticker is keyed (design §19.5): `brk-b` is `BRK.B`. */
  readonly upper: string;
  readonly words: readonly string[];
  readonly key: string;
  /** The most answers wanted. */
  readonly limit: number;
  /** The words, then the same words spaced otherwise ({@link respacings}): one query, spelled several ways. */
  readonly spellings: readonly (readonly string[])[];
}

/**
 * An immutable in-memory index over every company; built off the request path and swapped whole
 * when the catalog changes. Entries are numbered in the order ties are broken (more prominent,
 * then shorter name key, then name, then company id), so within a tier the smallest numbers win
 * and every tier is read in ascending order until the result is full: a query touches the
 * postings it needs, not the catalog.
 */
export class SearchIndex {
  readonly #ids: string[];
  readonly #keys: string[];
  /** Entries are numbered by group (prominence level, then key length): each group's first entry. */
  readonly #groupStarts: Int32Array;
  readonly #groupStride: number;
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
    this.#groupStarts = parts.groupStarts;
    this.#groupStride = parts.groupStride;
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

  /**
   * Company ids, most relevant first, at most `limit`, each company once; ties go to the more
   * prominent company, then the shorter, then earlier name.
   */
  search(query: string, limit = SEARCH_LIMIT): string[] {
    const trimmed = query.trim();
    const qWords = nameKey(query);
    const table = this.#vocabulary.entries;
    const keys = table.keys;
    const vocabulary = {
      isWord: (w: string) => table.number(w) !== undefined,
      isPrefix: (w: string) => (keys[lowerBound(keys, w)] ?? '').startsWith(w),
    };
    const q: Query = {
      upper: tickerKey(trimmed),
      words: qWords,
      key: qWords.join(' '),
      limit,
      spellings: qWords.length === 0 ? [] : [qWords, ...respacings(qWords, vocabulary)],
    };
    const found: string[] = [];
    const taken = new Set<number>();
    // A company given twice (two entries of one id) is answered once, where it ranks best.
    const answered = new Set<string>();
    const collect: Collect = (candidates, accept) => {
      for (const id of candidates) {
        if (taken.has(id) || (accept !== undefined && !accept(id))) continue;
        taken.add(id);
        const companyId = this.#ids[id] as string;
        if (answered.has(companyId)) continue;
        answered.add(companyId);
        found.push(companyId);
        if (found.length >= limit) return true;
      }
      return false;
    };
    if (limit <= 0) return [];
    // An identifier's company goes first; it keeps its place, not a second one, in the tiers after.
    const identified = trimmed === '' ? undefined : this.#identified(trimmed);
    if (identified !== undefined) {
      answered.add(identified);
      found.push(identified);
      if (found.length >= limit) return found;
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
          this.#nearTiers(q, collect)))
    );
    return found;
  }

  /** Entries are numbered by key length within each prominence level: read each level's window. */
  #exactNameTier(q: Query, collect: Collect): boolean {
    const table = this.#vocabulary.entries;
    const names = new Set<string>();
    const streams: Iterable<number>[] = [];
    for (const ws of q.spellings) {
      const [rarest] = this.#lists(table, ws) ?? [];
      if (rarest === undefined) continue;
      const key = ws.join(' ');
      names.add(key);
      streams.push(this.#inWindows(table, rarest, key.length));
    }
    return collect(mergeAll(streams), (id) => names.has(this.#keys[id] as string));
  }

  /** The ids of a list whose name key is `length` long, ascending: one window per prominence level. */
  *#inWindows(table: PostingsTable, list: number, length: number): Generator<number> {
    if (length >= this.#groupStride) return;
    for (let level = 0; level <= MAX_PROMINENCE; level++) {
      const group = level * this.#groupStride + length;
      yield* table.ids(list, this.#groupStarts[group] as number, this.#groupStarts[group + 1] as number);
    }
  }

  /** Every query word a whole word of the name, legal forms included; for any spelling of the query. */
  #wholeWordTier(q: Query, collect: Collect): boolean {
    const streams: Iterable<number>[] = [];
    for (const ws of q.spellings) {
      const matches = this.#wholeWordMatches(ws);
      if (matches !== undefined) streams.push(matches);
    }
    return collect(mergeAll(streams));
  }

  /** Entries holding every word whole (legal forms included), ascending; undefined when none can. */
  #wholeWordMatches(ws: readonly string[]): Iterable<number> | undefined {
    const vocabulary = this.#vocabulary.entries;
    const legal = this.#legalForms;
    const lists: { word?: number; legal?: number; size: number }[] = [];
    for (const w of ws) {
      const word = vocabulary.number(w);
      const form = legal.number(w);
      if (word === undefined && form === undefined) return undefined;
      const size = (word === undefined ? 0 : vocabulary.length(word)) + (form === undefined ? 0 : legal.length(form));
      lists.push({ ...(word === undefined ? {} : { word }), ...(form === undefined ? {} : { legal: form }), size });
    }
    lists.sort((a, b) => a.size - b.size);
    const [first, ...rest] = lists;
    if (first === undefined) return undefined;
    const holds = (l: { word?: number; legal?: number }, id: number) =>
      (l.word !== undefined && vocabulary.holds(l.word, id)) || (l.legal !== undefined && legal.holds(l.legal, id));
    const stream =
      first.legal === undefined
        ? vocabulary.ids(first.word)
        : first.word === undefined
          ? legal.ids(first.legal)
          : mergeAscending(vocabulary.ids(first.word), legal.ids(first.legal));
    return filtered(stream, (id) => rest.every((l) => holds(l, id)));
  }

  #prefixTier(q: Query, collect: Collect): boolean {
    const streams: Iterable<number>[] = [];
    for (const ws of q.spellings) {
      const matches = this.#prefixMatches(ws);
      if (matches !== undefined) streams.push(matches);
    }
    return collect(mergeAll(streams));
  }

  /**
   * Entries holding every word but the last whole and a word starting with the last, ascending;
   * undefined when none can.
   */
  #prefixMatches(ws: readonly string[]): Iterable<number> | undefined {
    const last = ws[ws.length - 1] ?? '';
    if (ws.length === 1) return this.#wordPrefixes(last);
    const table = this.#vocabulary.entries;
    const leading = this.#lists(table, ws.slice(0, -1));
    if (leading === undefined) return undefined;
    const [shortest, ...rest] = leading;
    if (shortest === undefined) return undefined;
    // A name here holds every leading word whole and a word starting with the last one: read the
    // smaller of the two candidate sets, the rarest leading word's entries or the entries of the
    // words starting with the last (for "shenzhen tryha" the few names with a word starting with
    // "tryha"; for "first m" the names holding "first").
    const [from, to] = this.#vocabulary.prefixRange(last);
    if (from === to) return undefined;
    const rarest = table.length(shortest);
    if (table.total(from, to, rarest) < rarest) {
      return filtered(this.#wordPrefixes(last), (id) => leading.every((l) => table.holds(l, id)));
    }
    const spaced = ` ${last}`;
    return filtered(table.ids(shortest), (id) => {
      if (!rest.every((l) => table.holds(l, id))) return false;
      const key = this.#keys[id] as string;
      return key.startsWith(last) || key.includes(spaced);
    });
  }

  #insideTier(q: Query, collect: Collect): boolean {
    const table = this.#vocabulary.entries;
    if (q.words.length === 1) return collect(this.#vocabulary.entriesContaining(q.key));
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
    return collect(table.union(best), (id) => (this.#keys[id] as string).includes(q.key));
  }

  /**
   * Near misses: every query word matches a name word within its typo budget (the last may also
   * start one). The candidates are the entries of the words near one query word, the anchor: a
   * word no name holds if there is one (a typo), else the rarest; each candidate's other words are
   * then measured against the query's. Names one edit from the query in all come before those two
   * or more away.
   */
  #nearTiers(q: Query, collect: Collect): boolean {
    const table = this.#vocabulary.entries;
    // Rarest first: a word no name holds or (the last) starts (-1), then by the names holding
    // it. The anchor is the rarest; candidates are measured rarest word first, so most fail at once.
    const frequency = q.words.map((w, i) => {
      if (i === q.words.length - 1) {
        const [from, to] = this.#vocabulary.prefixRange(w);
        return from === to ? -1 : table.total(from, to, this.#ids.length);
      }
      const n = table.number(w);
      return n === undefined ? -1 : table.length(n);
    });
    const order = q.words
      .map((_, i) => i)
      .sort(
        (a, b) =>
          (frequency[a] as number) - (frequency[b] as number) ||
          (q.words[b] as string).length - (q.words[a] as string).length ||
          a - b,
      );
    const anchor = order[0] as number;
    const word = q.words[anchor] as string;
    const lists = this.#vocabulary.near(word).map((f) => f.word);
    const exact = table.number(word);
    if (exact !== undefined && !lists.includes(exact)) lists.push(exact);
    if (anchor === q.words.length - 1) {
      const [from, to] = this.#vocabulary.prefixRange(word);
      for (let n = from; n < to; n++) if (!lists.includes(n)) lists.push(n);
    }
    if (lists.length === 0) return false;
    // One read of the candidates: names one edit away are collected as they come, the others kept
    // (in order) for after them, as many as could still be answered.
    const later: number[] = [];
    const full = collect(table.union(lists), (id) => {
      const c = nearCost(q.words, this.#keys[id] as string, order);
      if (c > 1 && c < Number.POSITIVE_INFINITY && later.length < q.limit) later.push(id);
      return c <= 1;
    });
    return full || collect(later);
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

/**
 * The edits a name key needs to match every query word: for each, the closest of the name's words
 * (0 for the word itself or, for the last, a word it starts; else within its budget, keeping an
 * end: {@link keepsAnEnd}); infinite when one has none.
 */
export function nearCost(queryWords: readonly string[], key: string, order?: readonly number[]): number {
  const nameWords = key.split(' ');
  let total = 0;
  for (let k = 0; k < queryWords.length; k++) {
    const i = order === undefined ? k : (order[k] as number);
    const q = queryWords[i] as string;
    const budget = typoBudget(q);
    const last = i === queryWords.length - 1;
    let best = Number.POSITIVE_INFINITY;
    for (const w of nameWords) {
      if (w === q || (last && w.startsWith(q))) {
        best = 0;
        break;
      }
      if (budget > 0 && keepsAnEnd(q, w)) {
        const d = editDistance(q, w, Math.min(budget, best - 1));
        if (d < best && d <= budget) best = d;
      }
    }
    if (best === Number.POSITIVE_INFINITY) return best;
    total += best;
  }
  return total;
}

/** Ascending id streams as one, without duplicates. */
function mergeAll(streams: readonly Iterable<number>[]): Iterable<number> {
  let merged: Iterable<number> = streams[0] ?? [];
  for (let i = 1; i < streams.length; i++) merged = mergeAscending(merged, streams[i] as Iterable<number>);
  return merged;
}

/** The ids of a stream that `accept` keeps, in their order. */
function* filtered(ids: Iterable<number>, accept: (id: number) => boolean): Generator<number> {
  for (const id of ids) if (accept(id)) yield id;
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
