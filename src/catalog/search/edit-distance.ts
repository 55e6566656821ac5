/**
 * Edit distance with adjacent transpositions counted as one edit (optimal string alignment, the
 * restricted Damerau–Levenshtein distance): "nvidai" is one edit from "nvidia", as people count
 * their slips, not two as plain Levenshtein counts them. Abandoned once it must exceed `max`
 * (then `max + 1`).
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a === b) return 0;
  const n = b.length;
  if (rowA.length <= n) {
    rowA = new Int32Array(n + 1);
    rowB = new Int32Array(n + 1);
    rowC = new Int32Array(n + 1);
  }
  // Three rows: the one before the previous holds what a transposition continues from.
  let before = rowC;
  let prev = rowA;
  let row = rowB;
  for (let j = 0; j <= n; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    let best = i;
    const ca = a.charCodeAt(i - 1);
    const pa = i > 1 ? a.charCodeAt(i - 2) : -1;
    for (let j = 1; j <= n; j++) {
      const cb = b.charCodeAt(j - 1);
      const cost = ca === cb ? 0 : 1;
      let v = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (cost === 1 && j > 1 && ca === b.charCodeAt(j - 2) && pa === cb) v = Math.min(v, (before[j - 2] as number) + 1);
      row[j] = v;
      if (v < best) best = v;
    }
    if (best > max) return max + 1;
    const t = before;
    before = prev;
    prev = row;
    row = t;
  }
  return Math.min(prev[n] as number, max + 1);
}

// Rows reused across calls: search is synchronous, so no call can interleave with another.
let rowA = new Int32Array(64);
let rowB = new Int32Array(64);
let rowC = new Int32Array(64);
