import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { random } from '../../tools/synthetic-ids.js';
import { drain } from './postings.js';
import { tieOrder } from './tie-order.js';

/** The order tieOrder must produce, by a plain comparator sort. */
function expected(names: readonly string[], ids: readonly string[], lengths: readonly number[]): number[] {
  return names
    .map((_, i) => i)
    .sort(
      (a, b) =>
        (lengths[a] as number) - (lengths[b] as number) ||
        ((names[a] as string) < (names[b] as string) ? -1 : (names[a] as string) > (names[b] as string) ? 1 : 0) ||
        ((ids[a] as string) < (ids[b] as string) ? -1 : (ids[a] as string) > (ids[b] as string) ? 1 : 0) ||
        a - b,
    );
}

const entry = (name: fc.Arbitrary<string>) => fc.record({ name, id: fc.constantFrom('a', 'b', 'c', 'ab'), length: fc.nat(12) });

function check(entries: readonly { name: string; id: string; length: number }[]): void {
  const names = entries.map((e) => e.name);
  const ids = entries.map((e) => e.id);
  const lengths = entries.map((e) => e.length);
  const order = drain(tieOrder(names, ids, Int32Array.from(lengths)));
  expect([...order]).toEqual(expected(names, ids, lengths));
}

describe('tie order', () => {
  it('orders by key length, name, company id and position, like a comparator sort', () => {
    // Few characters, so names share long prefixes and equal names are common.
    const name = fc.string({ unit: fc.constantFrom('a', 'b', ' ', 'é', 'Z', '中', '\u{1F600}'), maxLength: 14 });
    fc.assert(fc.property(fc.array(entry(name), { maxLength: 60 }), check), { numRuns: 300 });
  });

  it('stays exact when the characters present need many bits each', () => {
    // Names of any code units (lone surrogates included): some 60,000 distinct characters need 16
    // bits each, so only three are packed, and names sharing those are told apart as strings.
    const rng = random(11);
    const unit = () => String.fromCharCode(Math.floor(rng() * 0x10000));
    const entries = Array.from({ length: 12_000 }, () => {
      const name = Array.from({ length: 1 + Math.floor(rng() * 8) }, unit).join('');
      return { name, id: rng() < 0.5 ? 'a' : 'b', length: Math.floor(rng() * 3) };
    });
    const prefix = entries.slice(0, 500).map((e) => e.name.slice(0, 3));
    check([...entries, ...prefix.map((p, i) => ({ name: `${p}${unit()}`, id: 'a', length: i % 3 }))]);
  });
});
