import { isinCheckDigit, leiCheckDigits } from '../catalog/identifiers.js';
/**
 * Deterministic identifiers for synthetic bundles, each computed from a number alone so the
 * generator never has to remember what it already wrote.
 */

/** MurmurHash3's finalizer: a bijection on 32-bit integers that scatters neighbouring inputs. */
export function mix32(x: number): number {
  let h = x >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** A small, fast seeded PRNG (mulberry32): numbers in [0, 1). */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

/**
 * A UUID (version 4 layout) for the `n`-th object of a kind. The first group is a bijection of
 * `n`, so ids never collide below 2^32 objects; keys come out in scattered order, as real ids do,
 * which keeps an import benchmark honest about index inserts.
 */
export function syntheticUuid(seed: number, kind: number, n: number): string {
  const key = mix32(seed ^ Math.imul(kind, 0x9e3779b1));
  const a = mix32(n ^ key);
  const b = mix32(a ^ 0x68e31da4);
  const c = mix32(b ^ 0x1b56c4e9);
  const d = mix32(c ^ 0x3c6ef372);
  return `${hex(a, 8)}-${hex(b >>> 16, 4)}-4${hex(b & 0xfff, 3)}-${hex(0x8000 | (c & 0x3fff), 4)}-${hex(c >>> 16, 4)}${hex(d, 8)}`;
}

/** The ISIN with its check digit appended to a 2-letter, 9-character payload. */
export function withIsinCheckDigit(payload: string): string {
  return `${payload}${isinCheckDigit(payload)}`;
}

/** The LEI with its check digits appended to an 18-character payload. */
export function withLeiCheckDigits(payload: string): string {
  return `${payload}${leiCheckDigits(payload)}`;
}

/** Bijective base 26 (A, B, …, Z, AA, AB, …): every company its own all-letter ticker. */
export function letters(n: number): string {
  let s = '';
  let k = n + 1;
  while (k > 0) {
    k -= 1;
    s = String.fromCharCode(65 + (k % 26)) + s;
    k = Math.floor(k / 26);
  }
  return s;
}

/** `n` in base 36, upper case, left-padded to `width`: the serial part of ISINs and LEIs. */
export function serial(n: number, width: number): string {
  return n.toString(36).toUpperCase().padStart(width, '0');
}
