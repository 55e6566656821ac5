/**
 * Postings: for each key (a word, a ticker, an identifier), the ids of the entries holding it,
 * ascending. Ids are ranks, so a smaller id ranks first. Every list of a table lives in one
 * Int32Array with offsets: a million companies make millions of lists, and one typed array each
 * would cost more to allocate and hold than the ids themselves.
 */
export class PostingsTable {
  /** Keys by list number; ascending when the table was built sorted. */
  readonly keys: string[];
  readonly #numbers: Map<string, number>;
  /** Map value → list number, when the lists were put in key order after the map was filled. */
  readonly #renumber: Int32Array | undefined;
  readonly #ids: Int32Array;
  /** List n is #ids[#starts[n] .. #starts[n + 1]). */
  readonly #starts: Int32Array;

  constructor(
    keys: string[],
    numbers: Map<string, number>,
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
    const n = this.#numbers.get(key);
    return n === undefined || this.#renumber === undefined ? n : this.#renumber[n];
  }

  length(list: number): number {
    return (this.#starts[list + 1] as number) - (this.#starts[list] as number);
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

/** Collects (key, id) pairs while entries are added in id order, then lays them out as a table. */
export class PostingsBuilder {
  readonly #numbers = new Map<string, number>();
  readonly #keys: string[] = [];
  readonly #pairKeys = new IntBuffer();
  readonly #pairIds = new IntBuffer();

  add(key: string, id: number): void {
    let n = this.#numbers.get(key);
    if (n === undefined) {
      n = this.#keys.length;
      this.#numbers.set(key, n);
      this.#keys.push(key);
    }
    this.#pairKeys.push(n);
    this.#pairIds.push(id);
  }

  /** The table; with `sorted`, list numbers follow the keys' order, so a key range is a number range. */
  build(sorted = false): PostingsTable {
    let keys = this.#keys;
    let renumber: Int32Array | undefined;
    const numbers = this.#numbers;
    if (sorted) {
      const order = Array.from({ length: keys.length }, (_, i) => i);
      const unsorted = keys;
      order.sort((a, b) => ((unsorted[a] as string) < (unsorted[b] as string) ? -1 : 1));
      keys = order.map((i) => unsorted[i] as string);
      renumber = new Int32Array(keys.length);
      for (let i = 0; i < order.length; i++) renumber[order[i] as number] = i;
    }
    const count = this.#pairKeys.length;
    const pk = this.#pairKeys.data;
    const pi = this.#pairIds.data;
    const starts = new Int32Array(keys.length + 1);
    const lastId = new Int32Array(keys.length).fill(-1);
    // Count (dropping a word named twice in one name), then place: ids arrive ascending per key.
    for (let i = 0; i < count; i++) {
      const n = renumber === undefined ? (pk[i] as number) : (renumber[pk[i] as number] as number);
      pk[i] = n;
      if (lastId[n] === pi[i]) pk[i] = -1;
      else {
        lastId[n] = pi[i] as number;
        starts[n + 1] = (starts[n + 1] as number) + 1;
      }
    }
    for (let n = 0; n < keys.length; n++) starts[n + 1] = (starts[n + 1] as number) + (starts[n] as number);
    const fill = starts.slice(0, keys.length);
    const ids = new Int32Array(starts[keys.length] as number);
    for (let i = 0; i < count; i++) {
      const n = pk[i] as number;
      if (n < 0) continue;
      ids[fill[n] as number] = pi[i] as number;
      fill[n] = (fill[n] as number) + 1;
    }
    return new PostingsTable(keys, numbers, renumber, ids, starts);
  }
}
