import { lowerBound } from './postings.js';

/**
 * The edits a query word may hold and still find a name word (design §1.12): two from five
 * characters, one for three or four, none below. Short words are where a wrong guess is cheapest
 * to make ("bank" is one edit from "band", "bark", "bunk"), so they get fewer edits and keep their
 * first letter ({@link keepsFirstLetter}).
 */
export function typoBudget(word: string): number {
  if (word.length >= 5) return 2;
  return word.length >= 3 ? 1 : 0;
}

/** Whether a word's near misses must start with its own first letter: the short words' rule. */
export function keepsFirstLetter(word: string): boolean {
  return word.length < 5;
}

/**
 * Whether `candidate` may be a near miss of the query word `word` at all: a short word's keeps its
 * first letter; a longer word's keeps its first or its last letter (people rarely slip at both
 * ends of one word, and the rule lets a near miss be found from either end of the sorted
 * vocabulary instead of by reading all of it: {@link nearWords}).
 */
export function keepsAnEnd(word: string, candidate: string): boolean {
  if (word === '' || candidate === '') return word === candidate;
  const first = word.charCodeAt(0) === candidate.charCodeAt(0);
  if (keepsFirstLetter(word)) return first;
  return first || word.charCodeAt(word.length - 1) === candidate.charCodeAt(candidate.length - 1);
}

/** A string's UTF-16 code units in reverse order: what the vocabulary read backwards is sorted by. */
export function reversed(text: string): string {
  let out = '';
  for (let i = text.length - 1; i >= 0; i--) out += text.charAt(i);
  return out;
}

/** A vocabulary word near a query word: its number in the sorted vocabulary and its distance. */
export interface NearWord {
  readonly word: number;
  readonly distance: number;
}

/**
 * The words of a sorted vocabulary within `max` edits of `word` (transpositions count as one),
 * distance 0 included, in vocabulary order; with `firstLetter`, only those starting as `word` does
 * (the walk then reads only that letter's words: run over the words written backwards, it finds
 * the near misses that end as `word` does). The sorted words are walked as the trie they spell:
 * the rows of the edit-distance table are kept per depth, so a word shares the rows of the prefix
 * it has in common with the word before it, and once every cell of a row exceeds `max`, no word
 * below that prefix can come near, so the walk jumps past all of them by binary search. It reads
 * the few thousand prefixes near the query, not the vocabulary, and never the companies.
 */
export function nearWords(keys: readonly string[], word: string, max: number, firstLetter = false): NearWord[] {
  const m = word.length;
  let i = 0;
  let end = keys.length;
  if (firstLetter && m > 0) {
    const first = word.charAt(0);
    i = lowerBound(keys, first);
    end = lowerBound(keys, `${first}\uffff`);
  }
  const rows: Int32Array[] = [Int32Array.from({ length: m + 1 }, (_, j) => j)];
  const out: NearWord[] = [];
  // The rows of `path`'s prefixes are rows[0 .. path.length].
  let path = '';
  while (i < end) {
    const w = keys[i] as string;
    let shared = 0;
    const limit = Math.min(path.length, w.length);
    while (shared < limit && w.charCodeAt(shared) === path.charCodeAt(shared)) shared++;
    let pruned = 0;
    for (let k = shared + 1; k <= w.length; k++) {
      if (fillRow(rows, k, w, word) > max) {
        pruned = k;
        break;
      }
    }
    if (pruned > 0) {
      // Nothing starting with these `pruned` characters comes within `max`: skip them all.
      path = w.slice(0, pruned - 1);
      i = pastPrefix(keys, i, w, pruned, end);
      continue;
    }
    path = w;
    const distance = (rows[w.length] as Int32Array)[m] as number;
    if (distance <= max) out.push({ word: i, distance });
    i++;
  }
  return out;
}

/**
 * The first position after `i` (below `end`) whose word does not start with the first `length`
 * characters of `w`, the word at `i`: those words are one run of the sorted keys, mostly short, so
 * a galloping search from `i` finds its end in a few comparisons and builds no string.
 */
function pastPrefix(keys: readonly string[], i: number, w: string, length: number, end: number): number {
  const shares = (k: number) => {
    const key = keys[k] as string;
    if (key.length < length) return false;
    for (let c = 0; c < length; c++) if (key.charCodeAt(c) !== w.charCodeAt(c)) return false;
    return true;
  };
  let lo = i + 1;
  let hi = lo;
  for (let step = 1; hi < end && shares(hi); step *= 2) {
    lo = hi + 1;
    hi += step;
  }
  hi = Math.min(hi, end);
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (shares(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Row k of the table of `w`'s first k characters against `word`; answers the row's smallest cell. */
function fillRow(rows: Int32Array[], k: number, w: string, word: string): number {
  const m = word.length;
  let row = rows[k];
  if (row === undefined) {
    row = new Int32Array(m + 1);
    rows[k] = row;
  }
  const prev = rows[k - 1] as Int32Array;
  const before = k > 1 ? rows[k - 2] : undefined;
  const c = w.charCodeAt(k - 1);
  const p = k > 1 ? w.charCodeAt(k - 2) : -1;
  row[0] = k;
  let best = k;
  for (let j = 1; j <= m; j++) {
    const q = word.charCodeAt(j - 1);
    const cost = c === q ? 0 : 1;
    let v = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
    if (cost === 1 && before !== undefined && j > 1 && c === word.charCodeAt(j - 2) && p === q) {
      v = Math.min(v, (before[j - 2] as number) + 1);
    }
    row[j] = v;
    if (v < best) best = v;
  }
  return best;
}
