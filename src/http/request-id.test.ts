import { describe, expect, it } from 'vitest';
import { requestIdGenerator } from './request-id.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('requestIdGenerator', () => {
  it('makes version 4 UUIDs, all distinct, across many draws of its random buffer', () => {
    const next = requestIdGenerator();
    const seen = new Set<string>();
    for (let i = 0; i < 50_000; i++) {
      const id = next();
      expect(id).toMatch(UUID_V4);
      seen.add(id);
    }
    expect(seen.size).toBe(50_000);
  });

  it('spreads its digits: every hex digit appears at every free position', () => {
    const next = requestIdGenerator();
    const ids = Array.from({ length: 4000 }, next);
    for (const position of [0, 7, 9, 15, 20, 35]) {
      expect(new Set(ids.map((id) => id[position])).size).toBe(16);
    }
    // The variant position holds 8, 9, a or b only, each of them.
    expect(new Set(ids.map((id) => id[19]))).toEqual(new Set(['8', '9', 'a', 'b']));
  });

  it('gives each app its own generator: two never share a sequence', () => {
    const a = requestIdGenerator();
    const b = requestIdGenerator();
    expect(a()).not.toBe(b());
  });
});
