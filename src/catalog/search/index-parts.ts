import { withoutLegalForm, words } from './normalize-name.js';
import { PostingsBuilder, type PostingsTable } from './postings.js';
import type { SearchEntry } from './search-index.js';
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
  readonly lengthStarts: Int32Array;
  readonly identifiers: Map<string, string>;
  readonly tickers: PostingsTable;
  readonly vocabulary: Vocabulary;
  readonly legalForms: PostingsTable;
}

/** Entries handled between two pauses of an index built in slices. */
const SLICE = 20_000;

/**
 * Builds the parts of an index, pausing (yielding) every {@link SLICE} entries; {@link drain} runs
 * it through at once. Entries are numbered in tie-break order: name key length, name, company id.
 */
export function* indexParts(entries: readonly SearchEntry[], options: IndexOptions): Generator<void, IndexParts> {
  const ownIdentifiers = options.identify === undefined;
  const identifiers = new Map<string, string>();
  const remember = (identifier: string, companyId: string) => {
    if (!identifiers.has(identifier)) identifiers.set(identifier, companyId);
  };
  const n = entries.length;
  const all: string[][] = new Array(n);
  const keyWords: string[][] = new Array(n);
  const sortKeys: string[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const entry = entries[i] as SearchEntry;
    const w = words(entry.name);
    const k = withoutLegalForm(w);
    all[i] = w;
    keyWords[i] = k;
    // Tie order as one string, so the engine's own string sort does the work: key length, name, id.
    const length = k.reduce((sum, x) => sum + x.length, Math.max(0, k.length - 1));
    sortKeys[i] = `${String(length).padStart(4, '0')}${entry.name}\u0000${entry.companyId}\u0000${i}`;
    if (i % SLICE === SLICE - 1) yield;
  }
  yield;
  sortKeys.sort();
  yield;
  const ids: string[] = new Array(n);
  const keys: string[] = new Array(n);
  const tickers = new PostingsBuilder();
  const vocabulary = new PostingsBuilder();
  const legalForms = new PostingsBuilder();
  for (let id = 0; id < n; id++) {
    const sortKey = sortKeys[id] as string;
    const i = Number(sortKey.slice(sortKey.lastIndexOf('\u0000') + 1));
    const entry = entries[i] as SearchEntry;
    const kw = keyWords[i] as string[];
    const aw = all[i] as string[];
    ids[id] = entry.companyId;
    keys[id] = kw.join(' ');
    for (const t of entry.tickers) tickers.add(t.toUpperCase(), id);
    if (ownIdentifiers) {
      for (const isin of entry.isins ?? []) remember(isin.toUpperCase(), entry.companyId);
      if (entry.lei) remember(entry.lei.toUpperCase(), entry.companyId);
      const cik = entry.cik ? cikKey(entry.cik) : undefined;
      if (cik !== undefined) remember(cik, entry.companyId);
    }
    for (const w of kw) vocabulary.add(w, id);
    for (let j = kw.length - 1; j < aw.length; j++) if (aw[j] !== kw[j]) legalForms.add(aw[j] as string, id);
    if (id % SLICE === SLICE - 1) yield;
  }
  const longest = n === 0 ? 0 : (keys[n - 1] as string).length;
  const lengthStarts = new Int32Array(longest + 2).fill(n);
  for (let id = n - 1; id >= 0; id--) lengthStarts[(keys[id] as string).length] = id;
  for (let l = longest; l >= 0; l--) {
    lengthStarts[l] = Math.min(lengthStarts[l] as number, lengthStarts[l + 1] as number);
  }
  const tickerTable = tickers.build(true);
  yield;
  const vocabularyTable = new Vocabulary(vocabulary.build(true));
  yield;
  return {
    ids,
    keys,
    lengthStarts,
    identifiers,
    tickers: tickerTable,
    vocabulary: vocabularyTable,
    legalForms: legalForms.build(),
  };
}

/** Runs a sliced build through without pausing. */
export function drain<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}
