/** Entries placed between two pauses while runs of like names are sorted. */
const SLICE = 50_000;

/** At most this many leading characters go into an entry's number (more rarely tell names apart). */
const MAX_PACKED = 8;

/**
 * The entries in tie-break order: group (`keyLengths`: the index passes the prominence level and
 * the name key length as one small number), then name (by UTF-16 code units, as `<` compares
 * strings), then company id, then position in `entries`. Returns, for each rank, the
 * index of the entry holding it; pauses (yields) between steps, as a sliced index build does.
 *
 * A string sort of a million names costs seconds, most of it comparing names that their first few
 * characters already tell apart. So each entry gets one exact number (below 2^53) packing the rank
 * of its key length and the ranks of its first characters among the characters present; a radix
 * sort of these numbers places every entry, and only the runs of entries whose numbers are equal
 * (same key length, same first characters) are compared as strings.
 */
export function* tieOrder(
  names: readonly string[],
  companyIds: readonly string[],
  keyLengths: Int32Array,
): Generator<void, Int32Array> {
  const n = names.length;
  const packed = packNames(names, keyLengths);
  yield;
  // A stable radix sort of the numbers, 16 bits at a time from the lowest, carrying the numbers
  // along so that the runs of equal ones are found by reading them in order.
  let order = new Int32Array(n);
  let low = new Uint32Array(n);
  let high = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const v = packed[i] as number;
    order[i] = i;
    low[i] = v % 2 ** 32;
    high[i] = Math.floor(v / 2 ** 32);
  }
  let nextOrder = new Int32Array(n);
  let nextLow = new Uint32Array(n);
  let nextHigh = new Uint32Array(n);
  const counts = new Int32Array(0x10001);
  for (let pass = 0; pass < 4; pass++) {
    const keys = pass < 2 ? low : high;
    const shift = pass % 2 === 0 ? 0 : 16;
    counts.fill(0);
    for (let i = 0; i < n; i++) {
      const d = ((keys[i] as number) >>> shift) & 0xffff;
      counts[d + 1] = (counts[d + 1] as number) + 1;
    }
    if (counts[(((keys[0] ?? 0) >>> shift) & 0xffff) + 1] === n) continue; // one digit for all: nothing moves
    for (let d = 0; d < 0x10000; d++) counts[d + 1] = (counts[d + 1] as number) + (counts[d] as number);
    for (let i = 0; i < n; i++) {
      const d = ((keys[i] as number) >>> shift) & 0xffff;
      const at = counts[d] as number;
      counts[d] = at + 1;
      nextOrder[at] = order[i] as number;
      nextLow[at] = low[i] as number;
      nextHigh[at] = high[i] as number;
    }
    [order, nextOrder] = [nextOrder, order];
    [low, nextLow] = [nextLow, low];
    [high, nextHigh] = [nextHigh, high];
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
    let end = start + 1;
    while (end < n && low[end] === low[start] && high[end] === high[start]) end++;
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
