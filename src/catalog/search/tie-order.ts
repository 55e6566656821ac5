/** Entries placed between two pauses while runs of like names are sorted. */
const SLICE = 50_000;

/** At most this many leading characters go into an entry's number (more rarely tell names apart). */
const MAX_PACKED = 8;

/**
 * The entries in tie-break order: name key length, then name (by UTF-16 code units, as `<`
 * compares strings), then company id, then position in `entries`. Returns, for each rank, the
 * index of the entry holding it; pauses (yields) between steps, as a sliced index build does.
 *
 * A string sort of a million names costs seconds, most of it comparing names that their first few
 * characters already tell apart. So each entry gets one exact number (below 2^53) packing the rank
 * of its key length and the ranks of its first characters among the characters present; a native
 * numeric sort of these numbers and a counting sort place every entry, and only the runs of
 * entries whose numbers are equal (same key length, same first characters) are compared as strings.
 */
export function* tieOrder(
  names: readonly string[],
  companyIds: readonly string[],
  keyLengths: Int32Array,
): Generator<void, Int32Array> {
  const n = names.length;
  const packed = packNames(names, keyLengths);
  yield;
  // Rank of each entry's number among the distinct numbers, then a stable counting sort by rank.
  const distinct = Float64Array.from(packed).sort();
  let size = 0;
  for (let i = 0; i < n; i++) if (i === 0 || distinct[i] !== distinct[i - 1]) distinct[size++] = distinct[i] as number;
  const counts = new Int32Array(size + 1);
  const ranks = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const r = rankOf(distinct, size, packed[i] as number);
    ranks[i] = r;
    counts[r + 1] = (counts[r + 1] as number) + 1;
  }
  for (let r = 0; r < size; r++) counts[r + 1] = (counts[r + 1] as number) + (counts[r] as number);
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const r = ranks[i] as number;
    order[counts[r] as number] = i;
    counts[r] = (counts[r] as number) + 1;
  }
  yield;
  const compare = (a: number, b: number) => {
    const x = names[a] as string;
    const y = names[b] as string;
    if (x !== y) return x < y ? -1 : 1;
    const p = companyIds[a] as string;
    const q = companyIds[b] as string;
    if (p !== q) return p < q ? -1 : 1;
    return a - b;
  };
  let sinceYield = 0;
  for (let start = 0; start < n; ) {
    const value = packed[order[start] as number] as number;
    let end = start + 1;
    while (end < n && packed[order[end] as number] === value) end++;
    if (end - start > 1) order.subarray(start, end).sort(compare);
    sinceYield += end - start;
    if (sinceYield >= SLICE) {
      sinceYield = 0;
      yield;
    }
    start = end;
  }
  return order;
}

/**
 * One number per entry, ordered as (key length, name) are wherever the numbers differ: the rank of
 * the key length, then, in as many bits as the characters present need, the rank of each of the
 * first characters (0 past the end of the name, so a shorter name comes first, as with `<`).
 */
function packNames(names: readonly string[], keyLengths: Int32Array): Float64Array {
  const n = names.length;
  const seen = new Uint8Array(0x10000);
  let longest = 0;
  for (let i = 0; i < n; i++) {
    const name = names[i] as string;
    const end = Math.min(name.length, MAX_PACKED);
    for (let j = 0; j < end; j++) seen[name.charCodeAt(j)] = 1;
    longest = Math.max(longest, keyLengths[i] as number);
  }
  const charRank = new Int32Array(0x10000);
  let chars = 0;
  for (let c = 0; c < 0x10000; c++) if (seen[c] === 1) charRank[c] = ++chars;
  const lengthSeen = new Uint8Array(longest + 1);
  for (let i = 0; i < n; i++) lengthSeen[keyLengths[i] as number] = 1;
  const lengthRank = new Int32Array(longest + 1);
  let lengths = 0;
  for (let l = 0; l <= longest; l++) if (lengthSeen[l] === 1) lengthRank[l] = lengths++;
  const lengthBits = bitsFor(lengths);
  const charBits = bitsFor(chars + 1);
  const count = Math.min(MAX_PACKED, Math.floor((53 - lengthBits) / charBits));
  const scale = 2 ** charBits;
  const packed = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const name = names[i] as string;
    let v = lengthRank[keyLengths[i] as number] as number;
    for (let j = 0; j < count; j++) v = v * scale + (j < name.length ? (charRank[name.charCodeAt(j)] as number) : 0);
    packed[i] = v;
  }
  return packed;
}

/** Bits enough to write every number below `values`. */
function bitsFor(values: number): number {
  let bits = 0;
  while (2 ** bits < values) bits++;
  return bits;
}

/** Position of `value` among the first `size` (distinct, ascending) numbers of `sorted`. */
function rankOf(sorted: Float64Array, size: number, value: number): number {
  let lo = 0;
  let hi = size - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
