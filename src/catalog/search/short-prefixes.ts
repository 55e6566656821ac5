import { lowerBound, type PostingsTable, range } from './postings.js';

/** Entries kept per short prefix or character: enough for a full answer after the tiers before have taken theirs. */
export const HEAD_LENGTH = 64;
/** Unions of fewer lists than this are cheap to merge when asked. */
export const HEAD_FROM_LISTS = 32;

/**
 * A table sorted by key (words, tickers) with, for prefixes of one or two characters whose range
 * holds many keys (in a large catalog, thousands), the first entries of the union of their lists,
 * worked out once: "a" then reads a short list instead of merging every list starting with it.
 */
export class ShortPrefixes {
  readonly table: PostingsTable;
  readonly #heads = new Map<string, Int32Array>();

  constructor(table: PostingsTable) {
    this.table = table;
    const keys = table.keys;
    // Keys are sorted, so each prefix is a run of them: walk the runs, no lookup per key.
    for (let start = 0; start < keys.length; ) {
      if (keys[start] === '') {
        start++;
        continue;
      }
      const first = (keys[start] as string).charCodeAt(0);
      let end = start;
      while (end < keys.length && (keys[end] as string).charCodeAt(0) === first) end++;
      this.#keep((keys[start] as string).slice(0, 1), start, end);
      for (let from = start; from < end; ) {
        const key = keys[from] as string;
        if (key.length < 2) {
          from++;
          continue;
        }
        const second = key.charCodeAt(1);
        let to = from;
        while (to < end && (keys[to] as string).charCodeAt(1) === second) to++;
        this.#keep(key.slice(0, 2), from, to);
        from = to;
      }
      start = end;
    }
  }

  #keep(prefix: string, from: number, to: number): void {
    if (to - from >= HEAD_FROM_LISTS) this.#heads.set(prefix, this.table.head(range(from, to), HEAD_LENGTH));
  }

  /** List numbers [from, to) of the keys starting with `prefix`. */
  range(prefix: string): [number, number] {
    const keys = this.table.keys;
    return [lowerBound(keys, prefix), lowerBound(keys, `${prefix}\uffff`)];
  }

  /** Entries holding a key that starts with `prefix`, ascending, from entry `fromId` on. */
  entries(prefix: string, fromId = 0): Iterable<number> {
    const [from, to] = this.range(prefix);
    return withHead(this.#heads.get(prefix), fromId, (next) => this.table.union(range(from, to), next));
  }
}

/**
 * The ids of a union from `fromId` on, read from its precomputed head first: the rest of the union
 * (`after`) is read only when a caller wants more than a full head holds.
 */
export function* withHead(
  head: Int32Array | undefined,
  fromId: number,
  after: (fromId: number) => Iterable<number>,
): Generator<number> {
  if (head === undefined) {
    yield* after(fromId);
    return;
  }
  for (const id of head) if (id >= fromId) yield id;
  if (head.length < HEAD_LENGTH) return;
  yield* after(Math.max(fromId, (head[head.length - 1] as number) + 1));
}
