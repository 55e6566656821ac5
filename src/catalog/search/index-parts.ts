import { tickerKey } from '../ticker-key.js';
import { withoutLegalForm, words } from './normalize-name.js';
import { PostingsBuilder, type PostingsTable } from './postings.js';
import { MAX_PROMINENCE } from './prominence.js';
import type { SearchEntry } from './search-entry.js';
import { ShortPrefixes } from './short-prefixes.js';
import { tieOrder } from './tie-order.js';
import { Vocabulary } from './vocabulary.js';

/** A CIK as digits without leading zeros, so "0000320193" and "320193" are one key. */
export function cikKey(text: string): string | undefined {
  return /^[0-9]{1,10}$/.test(text) ? `cik:${text.replace(/^0+(?=.)/, '')}` : undefined;
}

export interface IndexOptions {
  /**
   * Where the caller already maps identifiers to companies (the catalog does), the index asks it
   * rather than keeping a map of its own (with a million companies, two million keys): it gets the
   * trimmed, upper-cased query and answers the id of the company whose ISIN, LEI or CIK it is.
   */
  readonly identify?: (identifier: string) => string | undefined;
}

/** What a {@link SearchIndex} is made of; see there for what each part answers. */
export interface IndexParts {
  readonly ids: string[];
  readonly keys: string[];
  /** Entries are numbered by group (prominence, highest first, then key length): each group's first entry. */
  readonly groupStarts: Int32Array;
  /** Groups per prominence level: one per key length, 0 to the longest. */
  readonly groupStride: number;
  readonly identifiers: Map<string, string>;
  readonly tickerPrefixes: ShortPrefixes;
  readonly vocabulary: Vocabulary;
  readonly legalForms: PostingsTable;
}

/** Entries handled between two pauses of an index built in slices. */
const SLICE = 20_000;

/**
 * Builds the parts of an index, pausing (yielding) every {@link SLICE} entries; {@link drain} runs
 * it through at once. Entries are numbered in tie-break order: prominence (highest first), name key
 * length, name, company id.
 * Each name is split once, in catalog order; its words go to the postings builders as numbers kept
 * per entry, and the tables are laid out once the order is known.
 */
export function* indexParts(entries: readonly SearchEntry[], options: IndexOptions): Generator<void, IndexParts> {
  const ownIdentifiers = options.identify === undefined;
  const identifiers = new Map<string, string>();
  const remember = (identifier: string, companyId: string) => {
    if (!identifiers.has(identifier)) identifiers.set(identifier, companyId);
  };
  const n = entries.length;
  const names: string[] = new Array(n);
  const companyIds: string[] = new Array(n);
  const entryKeys: string[] = new Array(n);
  const keyLengths = new Int32Array(n);
  const levels = new Int32Array(n);
  const tickers = new PostingsBuilder('sort');
  const vocabulary = new PostingsBuilder();
  const legalFormsBuilder = new PostingsBuilder();
  for (let i = 0; i < n; i++) {
    const entry = entries[i] as SearchEntry;
    const aw = words(entry.name);
    const kw = withoutLegalForm(aw);
    const key = kw.join(' ');
    names[i] = entry.name;
    companyIds[i] = entry.companyId;
    entryKeys[i] = key;
    keyLengths[i] = key.length;
    levels[i] = MAX_PROMINENCE - Math.max(0, Math.min(MAX_PROMINENCE, Math.round(entry.prominence ?? 0)));
    for (const w of kw) vocabulary.add(w, i);
    for (let j = kw.length - 1; j < aw.length; j++) if (aw[j] !== kw[j]) legalFormsBuilder.add(aw[j] as string, i);
    for (const t of entry.tickers) tickers.add(tickerKey(t), i);
    if (ownIdentifiers) {
      for (const isin of entry.isins ?? []) remember(isin.toUpperCase(), entry.companyId);
      if (entry.lei) remember(entry.lei.toUpperCase(), entry.companyId);
      const cik = entry.cik ? cikKey(entry.cik) : undefined;
      if (cik !== undefined) remember(cik, entry.companyId);
    }
    if (i % SLICE === SLICE - 1) yield;
  }
  yield;
  // Prominence, then key length, as one number per entry: the tie order sorts by it first.
  let longest = 0;
  for (let i = 0; i < n; i++) longest = Math.max(longest, keyLengths[i] as number);
  const groupStride = longest + 1;
  const groups = new Int32Array(n);
  for (let i = 0; i < n; i++) groups[i] = (levels[i] as number) * groupStride + (keyLengths[i] as number);
  const order = yield* tieOrder(names, companyIds, groups);
  const ids: string[] = new Array(n);
  const keys: string[] = new Array(n);
  const groupStarts = new Int32Array((MAX_PROMINENCE + 1) * groupStride + 1).fill(n);
  for (let id = 0; id < n; id++) {
    const i = order[id] as number;
    ids[id] = companyIds[i] as string;
    keys[id] = entryKeys[i] as string;
  }
  for (let id = n - 1; id >= 0; id--) groupStarts[groups[order[id] as number] as number] = id;
  for (let g = groupStarts.length - 2; g >= 0; g--) {
    groupStarts[g] = Math.min(groupStarts[g] as number, groupStarts[g + 1] as number);
  }
  yield;
  const tickerPrefixes = new ShortPrefixes(yield* tickers.build(true, order));
  yield;
  const vocabularyEntries = yield* vocabulary.build(true, order);
  yield;
  const vocabularyTable = new Vocabulary(vocabularyEntries);
  yield;
  const legalForms = yield* legalFormsBuilder.build(false, order);
  return {
    ids,
    keys,
    groupStarts,
    groupStride,
    identifiers,
    tickerPrefixes,
    vocabulary: vocabularyTable,
    legalForms,
  };
}
