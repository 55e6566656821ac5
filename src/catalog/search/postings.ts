import { tieOrder } from './tie-order.js';

/**
 * Postings: for each key (a word, a ticker, an identifier), the ids of the entries holding it,
 * ascending. Ids are ranks, so a smaller id ranks first. Every list of a table lives in one
 * Int32Array with offsets: a million companies make millions of lists, and one typed array each
 * would cost more to allocate and hold than the ids themselves.
 */
export class PostingsTable {
  /** Keys by list number; ascending when the table was built sorted. */
  readonly keys: string[];
  /** Key → map value; without it, keys are sorted and found by binary search. */
  readonly #numbers: Map<string, number> | undefined;
  /** Map value → list number, when the lists were put in key order after the map was filled. */
  readonly #renumber: Int32Array | undefined;
  readonly #ids: Int32Array;
  /** List n is #ids[#starts[n] .. #starts[n + 1]). */
  readonly #starts: Int32Array;

  constructor(
    keys: string[],
    numbers: Map<string, number> | undefined,
    renumber: Int32Array | undefined,
    ids: Int32Array,
    starts: Int32Array,
  ) {
    this.keys = keys;
    this.#numbers = numbers;
    this.#renumber = renumber;
    this.#ids = ids;
    this.#starts = starts;
  }

  get lists(): number {
    return this.keys.length;
  }

  /** The list number of a key. */
  number(key: string): number | undefined {
    if (this.#numbers === undefined) {
      const at = lowerBound(this.keys, key);
      return this.keys[at] === key ? at : undefined;
    }
    const n = this.#numbers.get(key);
    return n === undefined || this.#renumber === undefined ? n : this.#renumber[n];
  }

  length(list: number): number {
    return (this.#starts[list + 1] as number) - (this.#starts[list] as number);
  }

  /** The total length of lists [from, to), counted up to `cap` at most (then `cap`). */
  total(from: number, to: number, cap: number): number {
    let sum = 0;
    for (let n = from; n < to && sum < cap; n++) sum += this.length(n);
    return Math.min(sum, cap);
  }

  /** The ids of one list, ascending, within [from, to). */
  *ids(list: number | undefined, from = 0, to = ALL): Generator<number> {
    if (list === undefined) return;
    const end = this.#starts[list + 1] as number;
    for (let i = this.#seek(list, from); i < end; i++) {
      const id = this.#ids[i] as number;
      if (id >= to) return;
      yield id;
    }
  }

  /** Position of the first id of a list not below `from`. */
  #seek(list: number, from: number): number {
    let lo = this.#starts[list] as number;
    if (from <= 0) return lo;
    let hi = this.#starts[list + 1] as number;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.#ids[mid] as number) < from) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** One list as a view (no copy), for loops too hot for a generator. */
  view(list: number): Int32Array {
    return this.#ids.subarray(this.#starts[list] as number, this.#starts[list + 1] as number);
  }

  /** Whether a list holds `id` (binary search). */
  holds(list: number, id: number): boolean {
    let lo = this.#starts[list] as number;
    let hi = (this.#starts[list + 1] as number) - 1;
    const ids = this.#ids;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = ids[mid] as number;
      if (v === id) return true;
      if (v < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }

  /**
   * The first `count` ids of the union of several lists, worked out once for unions asked often
   * (the entries of every word starting with "a"). The `count` smallest distinct first ids bound
   * the answer, so each list is read only up to that bound, and at most `count` ids of it: the
   * cost is the number of lists, not their total length.
   */
  head(lists: ArrayLike<number>, count: number): Int32Array {
    const ids = this.#ids;
    const starts = this.#starts;
    const firsts = new Int32Array(count);
    let size = 0;
    for (let i = 0; i < lists.length; i++) {
      const n = lists[i] as number;
      const s = starts[n] as number;
      if (s === starts[n + 1]) continue;
      const f = ids[s] as number;
      if (size === count && f >= (firsts[size - 1] as number)) continue;
      let lo = 0;
      let hi = size;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if ((firsts[mid] as number) < f) lo = mid + 1;
        else hi = mid;
      }
      if (lo < size && firsts[lo] === f) continue;
      firsts.copyWithin(lo + 1, lo, size === count ? size - 1 : size);
      firsts[lo] = f;
      if (size < count) size++;
    }
    const bound = size === count ? (firsts[size - 1] as number) : ALL;
    const gathered: number[] = [];
    for (let i = 0; i < lists.length; i++) {
      const n = lists[i] as number;
      const end = Math.min(starts[n + 1] as number, (starts[n] as number) + count);
      for (let p = starts[n] as number; p < end && (ids[p] as number) <= bound; p++) gathered.push(ids[p] as number);
    }
    const sorted = Int32Array.from(gathered).sort();
    let kept = 0;
    for (let i = 0; i < sorted.length && kept < count; i++) {
      if (kept === 0 || sorted[i] !== sorted[kept - 1]) sorted[kept++] = sorted[i] as number;
    }
    return sorted.slice(0, kept);
  }

  /**
   * The union of several lists, ascending, without duplicates, read lazily through a min-heap of
   * list heads: the first k cost O(lists + k log lists), not the lists' total length. Only ids
   * within [from, to) are read.
   */
  *union(lists: ArrayLike<number>, from = 0, to = ALL): Generator<number> {
    const ids = this.#ids;
    const heap: number[] = [];
    const pos: number[] = [];
    const end: number[] = [];
    for (let i = 0; i < lists.length; i++) {
      const n = lists[i] as number;
      const s = this.#seek(n, from);
      const e = this.#starts[n + 1] as number;
      if (s < e && (ids[s] as number) < to) {
        heap.push(pos.length);
        pos.push(s);
        end.push(e);
      }
    }
    const head = (h: number) => ids[pos[heap[h] as number] as number] as number;
    const down = (start: number) => {
      let i = start;
      const size = heap.length;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= size) return;
        const r = l + 1;
        const c = r < size && head(r) < head(l) ? r : l;
        if (head(c) >= head(i)) return;
        const t = heap[c] as number;
        heap[c] = heap[i] as number;
        heap[i] = t;
        i = c;
      }
    };
    for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
    let last = -1;
    while (heap.length > 0) {
      const top = heap[0] as number;
      const p = pos[top] as number;
      const id = ids[p] as number;
      if (id >= to) return;
      if (p + 1 < (end[top] as number)) pos[top] = p + 1;
      else {
        const moved = heap.pop() as number;
        if (heap.length > 0) heap[0] = moved;
      }
      if (heap.length > 0) down(0);
      if (id !== last) {
        last = id;
        yield id;
      }
    }
  }
}

const ALL = 0x7fffffff;

/** Numbers [from, to): the lists of a range of keys, as {@link PostingsTable.union} takes them. */
export function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);
}

/** Growable int array, so building a million companies' postings makes no array per key. */
class IntBuffer {
  data = new Int32Array(1024);
  length = 0;
  push(v: number): void {
    if (this.length === this.data.length) {
      const bigger = new Int32Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = v;
  }
}

/** Entries placed between two pauses of a table build. */
const BUILD_SLICE = 100_000;

/**
 * Collects the keys of entries added one after another (entry numbers ascending), then lays them
 * out as a table whose ids are the entries' ranks in a given order. Keys are kept per entry, not as
 * (key, id) pairs sorted later: the ranks are known only once every entry is in, and reading the
 * entries in rank order puts every list in ascending order without sorting it.
 *
 * Keys are numbered through a map as they come (`numberBy` "map", for words: few distinct keys,
 * met again and again), or only at the end by one sort of every key met ("sort", for tickers:
 * nearly all distinct, where a map of a million keys costs more than the sort, and the table finds
 * a key by binary search instead of keeping the map).
 */
export class PostingsBuilder {
  readonly #numbers: Map<string, number> | undefined;
  /** Keys by number ("map"), or every key as it came ("sort"). */
  readonly #keys: string[] = [];
  /** Every entry's key numbers ("map") or key positions in #keys ("sort"), entry after entry. */
  readonly #values = new IntBuffer();
  /** Entry e's values are #values[#entryStarts[e] .. #entryStarts[e + 1]). */
  readonly #entryStarts = new IntBuffer();

  constructor(numberBy: 'map' | 'sort' = 'map') {
    this.#numbers = numberBy === 'map' ? new Map() : undefined;
  }

  /** Adds a key to entry `entry`, which is not below the entry of the previous call. */
  add(key: string, entry: number): void {
    while (this.#entryStarts.length <= entry) this.#entryStarts.push(this.#values.length);
    const numbers = this.#numbers;
    if (numbers === undefined) {
      this.#values.push(this.#keys.length);
      this.#keys.push(key);
      return;
    }
    let n = numbers.get(key);
    if (n === undefined) {
      n = this.#keys.length;
      numbers.set(key, n);
      this.#keys.push(key);
    }
    this.#values.push(n);
  }

  /**
   * The table. With `sorted` (always, when numbered by sort), list numbers follow the keys' order,
   * so a key range is a number range. `order` lists the entries by rank (the ids of the table);
   * without it, entry e is id e. Once only: it rewrites what was collected in place. Pauses
   * (yields) between steps, as a sliced index build does; {@link drain} runs it through at once.
   */
  *build(sorted = false, order?: Int32Array): Generator<void, PostingsTable> {
    let keys = this.#keys;
    let renumber: Int32Array | undefined;
    const numbers = this.#numbers;
    if (numbers === undefined) {
      // One sort of every key met; equal keys, side by side, take one number.
      const met = this.#keys;
      const byKey = yield* tieOrder(met, met, new Int32Array(met.length));
      renumber = new Int32Array(met.length);
      keys = [];
      for (let i = 0; i < byKey.length; i++) {
        const key = met[byKey[i] as number] as string;
        if (keys.length === 0 || keys[keys.length - 1] !== key) keys.push(key);
        renumber[byKey[i] as number] = keys.length - 1;
      }
    } else if (sorted) {
      // The engine's own sort of the strings, without a comparator to call, then each key's place.
      keys = keys.slice().sort();
      renumber = new Int32Array(keys.length);
      for (let i = 0; i < keys.length; i++) renumber[numbers.get(keys[i] as string) as number] = i;
    }
    yield;
    const count = order === undefined ? this.#entryStarts.length : order.length;
    while (this.#entryStarts.length <= count) this.#entryStarts.push(this.#values.length);
    const values = this.#values.data;
    const entryStarts = this.#entryStarts.data;
    const starts = new Int32Array(keys.length + 1);
    const lastEntry = new Int32Array(keys.length).fill(-1);
    // Count (a word named twice in one name counts once) reading the entries as they came, and
    // put the final list numbers in place; then place, reading the entries in rank order, so the
    // ids of every list come ascending.
    for (let e = 0; e < count; e++) {
      for (let v = entryStarts[e] as number, end = entryStarts[e + 1] as number; v < end; v++) {
        const n = renumber === undefined ? (values[v] as number) : (renumber[values[v] as number] as number);
        values[v] = n;
        if (lastEntry[n] === e) continue;
        lastEntry[n] = e;
        starts[n + 1] = (starts[n + 1] as number) + 1;
      }
    }
    yield;
    for (let n = 0; n < keys.length; n++) starts[n + 1] = (starts[n + 1] as number) + (starts[n] as number);
    const fill = starts.slice(0, keys.length);
    const ids = new Int32Array(starts[keys.length] as number);
    for (let id = 0; id < count; id++) {
      if (id % BUILD_SLICE === BUILD_SLICE - 1) yield;
      const e = order === undefined ? id : (order[id] as number);
      for (let v = entryStarts[e] as number, end = entryStarts[e + 1] as number; v < end; v++) {
        const n = values[v] as number;
        const at = fill[n] as number;
        if (at > (starts[n] as number) && ids[at - 1] === id) continue;
        ids[at] = id;
        fill[n] = at + 1;
      }
    }
    return new PostingsTable(keys, numbers, numbers === undefined ? undefined : renumber, ids, starts);
  }
}

/** Runs a sliced computation through without pausing. */
export function drain<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}

/** First position in a sorted array whose value is not below `value`. */
export function lowerBound(sorted: readonly string[], value: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as string) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
