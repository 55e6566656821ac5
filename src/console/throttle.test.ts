import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  FAILURE_WINDOW_MS,
  FIRST_SLOWDOWN_MS,
  IP_FAILURE_LIMIT,
  MAX_SLOWDOWN_MS,
  MAX_TRACKED,
  PAIR_FAILURE_LIMIT,
  SignInThrottle,
  SLOW_AFTER_FAILURES,
  slowdownMs,
} from './throttle.js';

/** The seconds an attempt must wait when refused, 0 when it may go ahead. */
const refusal = (throttle: SignInThrottle, email: string, ip: string) => throttle.begin(email, ip).retryAfterSeconds;

describe('sign-in throttle', () => {
  it('refuses an email from one address after its 5th failure there until the oldest leaves the 15-minute window', () => {
    let now = 1_000_000;
    const throttle = new SignInThrottle(() => new Date(now));
    for (let i = 0; i < PAIR_FAILURE_LIMIT; i += 1) {
      expect(refusal(throttle, 'A@example.com', '10.0.0.1')).toBe(0);
      now += 60_000;
    }
    // The first failure was 5 minutes ago: 10 minutes to wait, whatever the case of the email or the port.
    expect(refusal(throttle, 'a@EXAMPLE.com', '10.0.0.1:4444')).toBe(10 * 60);
    expect(refusal(throttle, 'b@example.com', '10.0.0.1')).toBe(0);
    // Not from another address: five wrong passwords do not lock the owner out.
    expect(refusal(throttle, 'a@example.com', '10.0.0.2')).toBe(0);
    now += 10 * 60_000;
    expect(refusal(throttle, 'a@example.com', '10.0.0.1')).toBe(0);
  });

  it('counts an attempt from its start: attempts begun together cannot pass the limit', () => {
    const throttle = new SignInThrottle(() => new Date(1_000_000));
    // Twenty attempts begun before any has been checked: only the first five may go ahead.
    const begun = Array.from({ length: 20 }, () => refusal(throttle, 'c@example.com', '10.0.0.3'));
    expect(begun.filter((wait) => wait === 0)).toHaveLength(PAIR_FAILURE_LIMIT);
  });

  it('slows an email guessed at from many addresses, doubling the hold up to its cap, and never refuses a new address', () => {
    const throttle = new SignInThrottle(() => new Date(2_000_000));
    const holds: number[] = [];
    for (let i = 0; i < 40; i += 1) {
      const attempt = throttle.begin('e@example.com', `10.1.${i}.1`);
      expect(attempt.retryAfterSeconds).toBe(0);
      holds.push(attempt.delayMs);
    }
    expect(holds.slice(0, SLOW_AFTER_FAILURES)).toEqual([0, 0, 0, 0, 0]);
    expect(holds.slice(SLOW_AFTER_FAILURES, SLOW_AFTER_FAILURES + 5)).toEqual([250, 500, 1000, 2000, 4000]);
    expect(holds.slice(SLOW_AFTER_FAILURES + 5).every((h) => h === MAX_SLOWDOWN_MS)).toBe(true);
    // Another email is not slowed by it.
    expect(throttle.begin('f@example.com', '10.1.0.1').delayMs).toBe(0);
  });

  it('holds, never refuses, an attempt from a fresh address, whatever failures came before (property)', () => {
    const attempts = fc.array(
      fc.record({ email: fc.constantFrom('v@example.com', 'V@Example.com', 'w@example.com'), from: fc.nat({ max: 40 }) }),
      { maxLength: 300 },
    );
    fc.assert(
      fc.property(attempts, fc.nat({ max: 5000 }), (list, gapMs) => {
        let now = 10_000_000;
        const throttle = new SignInThrottle(() => new Date(now));
        for (const { email, from } of list) {
          throttle.begin(email, `192.0.2.${from}`);
          now += gapMs;
        }
        const owner = throttle.begin('v@example.com', '203.0.113.1');
        expect(owner.retryAfterSeconds).toBe(0);
        expect(owner.delayMs).toBeGreaterThanOrEqual(0);
        expect(owner.delayMs).toBeLessThanOrEqual(MAX_SLOWDOWN_MS);
      }),
    );
    expect(slowdownMs(SLOW_AFTER_FAILURES - 1)).toBe(0);
    expect(slowdownMs(SLOW_AFTER_FAILURES)).toBe(FIRST_SLOWDOWN_MS);
    expect(slowdownMs(10_000)).toBe(MAX_SLOWDOWN_MS);
  });

  it("takes a successful attempt back and forgives its email's failures from its address, not from others", () => {
    const now = 5_000_000;
    const throttle = new SignInThrottle(() => new Date(now));
    for (let i = 0; i < PAIR_FAILURE_LIMIT - 1; i += 1) throttle.begin('d@example.com', '10.0.0.4');
    for (let i = 0; i < PAIR_FAILURE_LIMIT; i += 1) throttle.begin('d@example.com', '10.0.0.9');
    expect(refusal(throttle, 'd@example.com', '10.0.0.4')).toBe(0);
    throttle.succeeded('d@example.com', '10.0.0.4');
    for (let i = 0; i < PAIR_FAILURE_LIMIT; i += 1) expect(refusal(throttle, 'd@example.com', '10.0.0.4')).toBe(0);
    expect(refusal(throttle, 'd@example.com', '10.0.0.9')).toBeGreaterThan(0);

    for (let i = 0; i < IP_FAILURE_LIMIT - 2 * PAIR_FAILURE_LIMIT; i += 1) throttle.begin(`user${i}@example.com`, '10.0.0.4');
    // 29 failures and one success from 10.0.0.4: one more attempt is allowed, then none.
    expect(refusal(throttle, 'new@example.com', '10.0.0.4')).toBe(0);
    expect(refusal(throttle, 'new2@example.com', '10.0.0.4')).toBe(FAILURE_WINDOW_MS / 1000);
    expect(refusal(throttle, 'new2@example.com', '10.0.0.6')).toBe(0);
  });

  it('keeps a locked email and address locked when a flood of other emails fills its memory', () => {
    const now = 7_000_000;
    const throttle = new SignInThrottle(() => new Date(now));
    for (let i = 0; i < PAIR_FAILURE_LIMIT; i += 1) throttle.begin('victim@example.com', '10.0.0.7');
    expect(refusal(throttle, 'victim@example.com', '10.0.0.7')).toBeGreaterThan(0);
    for (let i = 0; i < MAX_TRACKED + 10; i += 1) throttle.begin(`junk${i}@example.com`, `2001:db8:${i.toString(16)}::1`);
    expect(refusal(throttle, 'victim@example.com', '10.0.0.7')).toBe(FAILURE_WINDOW_MS / 1000);
  });

  it('counts an IPv6 client by its /64', () => {
    const throttle = new SignInThrottle(() => new Date(9_000_000));
    for (let i = 0; i < IP_FAILURE_LIMIT; i += 1) throttle.begin(`v6-${i}@example.com`, `2001:db8:1:2::${(i + 1).toString(16)}`);
    expect(refusal(throttle, 'another@example.com', '[2001:db8:1:2:ffff:ffff:ffff:ffff]:443')).toBeGreaterThan(0);
    expect(refusal(throttle, 'another@example.com', '2001:db8:1:3::1')).toBe(0);
  });
});
