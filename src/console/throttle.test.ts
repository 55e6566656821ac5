import { describe, expect, it } from 'vitest';
import { EMAIL_FAILURE_LIMIT, FAILURE_WINDOW_MS, IP_FAILURE_LIMIT, MAX_TRACKED, SignInThrottle } from './throttle.js';

describe('sign-in throttle', () => {
  it('refuses an email after its 5th failure until the oldest failure leaves the 15-minute window', () => {
    let now = 1_000_000;
    const throttle = new SignInThrottle(() => new Date(now));
    for (let i = 0; i < EMAIL_FAILURE_LIMIT; i += 1) {
      expect(throttle.begin('A@example.com', '10.0.0.1')).toBe(0);
      now += 60_000;
    }
    // The first failure was 5 minutes ago: 10 minutes to wait, whatever the case of the email.
    expect(throttle.begin('a@EXAMPLE.com', '10.0.0.2')).toBe(10 * 60);
    expect(throttle.begin('b@example.com', '10.0.0.1')).toBe(0);
    now += 10 * 60_000;
    expect(throttle.begin('a@example.com', '10.0.0.2')).toBe(0);
  });

  it('counts an attempt from its start: attempts begun together cannot pass the limit', () => {
    const throttle = new SignInThrottle(() => new Date(1_000_000));
    // Twenty attempts begun before any has been checked: only the first five may go ahead.
    const begun = Array.from({ length: 20 }, () => throttle.begin('c@example.com', '10.0.0.3'));
    expect(begun.filter((wait) => wait === 0)).toHaveLength(EMAIL_FAILURE_LIMIT);
  });

  it('takes a successful attempt back and forgives its email, not its address', () => {
    const now = 5_000_000;
    const throttle = new SignInThrottle(() => new Date(now));
    for (let i = 0; i < EMAIL_FAILURE_LIMIT - 1; i += 1) throttle.begin('d@example.com', '10.0.0.4');
    expect(throttle.begin('d@example.com', '10.0.0.4')).toBe(0);
    throttle.succeeded('d@example.com', '10.0.0.4');
    for (let i = 0; i < EMAIL_FAILURE_LIMIT; i += 1) expect(throttle.begin('d@example.com', '10.0.0.5')).toBe(0);

    for (let i = 0; i < IP_FAILURE_LIMIT - EMAIL_FAILURE_LIMIT; i += 1) throttle.begin(`user${i}@example.com`, '10.0.0.4');
    // 29 failures and one success from 10.0.0.4: one more attempt is allowed, then none.
    expect(throttle.begin('new@example.com', '10.0.0.4')).toBe(0);
    expect(throttle.begin('new2@example.com', '10.0.0.4')).toBe(FAILURE_WINDOW_MS / 1000);
    expect(throttle.begin('new2@example.com', '10.0.0.6')).toBe(0);
  });

  it('keeps a locked email locked when a flood of other emails fills its memory', () => {
    const now = 7_000_000;
    const throttle = new SignInThrottle(() => new Date(now));
    for (let i = 0; i < EMAIL_FAILURE_LIMIT; i += 1) throttle.begin('victim@example.com', '10.0.0.7');
    expect(throttle.begin('victim@example.com', '10.0.0.8')).toBeGreaterThan(0);
    for (let i = 0; i < MAX_TRACKED + 10; i += 1) throttle.begin(`junk${i}@example.com`, `2001:db8:${i.toString(16)}::1`);
    expect(throttle.begin('victim@example.com', '10.0.0.9')).toBe(FAILURE_WINDOW_MS / 1000);
  });

  it('counts an IPv6 client by its /64', () => {
    const throttle = new SignInThrottle(() => new Date(9_000_000));
    for (let i = 0; i < IP_FAILURE_LIMIT; i += 1) throttle.begin(`v6-${i}@example.com`, `2001:db8:1:2::${(i + 1).toString(16)}`);
    expect(throttle.begin('another@example.com', '2001:db8:1:2:ffff:ffff:ffff:ffff')).toBeGreaterThan(0);
    expect(throttle.begin('another@example.com', '2001:db8:1:3::1')).toBe(0);
  });
});
