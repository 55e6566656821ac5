import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_POLICY, parseRetryAfter, type RetryPolicy, retryDelayMs } from './retry-policy.js';

const policyArb: fc.Arbitrary<RetryPolicy> = fc.record({
  tries: fc.integer({ min: 1, max: 10 }),
  baseMs: fc.integer({ min: 1, max: 10_000 }),
  maxMs: fc.integer({ min: 1, max: 120_000 }),
  maxRetryAfterMs: fc.integer({ min: 0, max: 3_600_000 }),
});
const unit = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });

describe('retryDelayMs', () => {
  it('waits between half and all of the doubled, capped backoff when the server names no wait', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), policyArb, unit, (attempt, policy, r) => {
        const backoff = Math.min(policy.maxMs, policy.baseMs * 2 ** (attempt - 1));
        const delay = retryDelayMs(attempt, undefined, policy, () => r);
        expect(delay).toBeGreaterThanOrEqual(Math.floor(backoff / 2));
        expect(delay).toBeLessThanOrEqual(Math.ceil(backoff));
      }),
    );
  });

  it('never retries sooner than Retry-After, and gives up when it asks for more than the policy waits', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        policyArb,
        fc.integer({ min: 0, max: 7_200_000 }),
        unit,
        (attempt, policy, after, r) => {
          const delay = retryDelayMs(attempt, after, policy, () => r);
          if (after > policy.maxRetryAfterMs) expect(delay).toBeUndefined();
          else expect(delay).toBeGreaterThanOrEqual(after);
        },
      ),
    );
  });

  it('spreads clients that failed together (jitter), and doubles from try to try', () => {
    const p = DEFAULT_RETRY_POLICY;
    expect(retryDelayMs(1, undefined, p, () => 0)).toBe(500);
    expect(retryDelayMs(1, undefined, p, () => 0.999)).toBe(1000);
    expect(retryDelayMs(4, undefined, p, () => 0)).toBe(4000);
    expect(retryDelayMs(20, undefined, p, () => 0)).toBe(30_000);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-26T12:00:00Z');

  it('reads delay-seconds and HTTP-dates', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e6 }), (s) => {
        expect(parseRetryAfter(String(s), now)).toBe(s * 1000);
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: -86_400, max: 86_400 }), (s) => {
        const date = new Date(now + s * 1000).toUTCString();
        expect(parseRetryAfter(date, now)).toBe(Math.max(0, s * 1000));
      }),
    );
  });

  it('ignores what is neither', () => {
    for (const v of [null, '', '-1', '1.5', 'soon', '2026-11-26', 'Infinity'])
      expect(parseRetryAfter(v, now), String(v)).toBeUndefined();
  });
});
