import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TokenBuckets } from './token-buckets.js';

describe('TokenBuckets', () => {
  it('lets a full window burst through, then refuses with the wait until the next token', () => {
    let now = 0;
    const buckets = new TokenBuckets({ requests: 3, windowSeconds: 1 }, () => now);
    expect([1, 2, 3].map(() => buckets.take('a').allowed)).toEqual([true, true, true]);
    const refused = buckets.take('a');
    expect(refused).toEqual({ allowed: false, remaining: 0, resetSeconds: 1, retryAfterSeconds: 1 });
    expect(buckets.take('b').allowed).toBe(true); // another client has its own bucket
    now = 340;
    expect(buckets.take('a').allowed).toBe(true);
    expect(buckets.take('a').allowed).toBe(false);
  });

  it('never lets more pass than the burst plus the refill over the elapsed time', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }),
        fc.constantFrom(1, 60),
        fc.array(fc.integer({ min: 0, max: 2000 }), { minLength: 1, maxLength: 300 }),
        (requests, windowSeconds, gaps) => {
          let now = 0;
          const buckets = new TokenBuckets({ requests, windowSeconds }, () => now);
          let passed = 0;
          for (const gap of gaps) {
            now += gap;
            const d = buckets.take('client');
            if (d.allowed) passed += 1;
            expect(d.remaining).toBeGreaterThanOrEqual(0);
            expect(d.remaining).toBeLessThanOrEqual(requests);
            expect(d.allowed ? d.retryAfterSeconds === 0 : d.retryAfterSeconds >= 1).toBe(true);
          }
          const refill = (now * requests) / (windowSeconds * 1000);
          expect(passed).toBeLessThanOrEqual(requests + Math.floor(refill + 1e-9));
        },
      ),
    );
  });

  it('lets a client that waited its Retry-After through', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.constantFrom(1, 60), (requests, windowSeconds) => {
        let now = 0;
        const buckets = new TokenBuckets({ requests, windowSeconds }, () => now);
        let d = buckets.take('c');
        while (d.allowed) d = buckets.take('c');
        now += d.retryAfterSeconds * 1000;
        expect(buckets.take('c').allowed).toBe(true);
      }),
    );
  });
});
