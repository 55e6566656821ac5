import { describe, expect, it } from 'vitest';
import { EMAIL_FAILURE_LIMIT, FAILURE_WINDOW_MS, IP_FAILURE_LIMIT, SignInThrottle } from './throttle.js';

describe('sign-in throttle', () => {
  it('refuses an email after its 5th failure until the oldest failure leaves the 15-minute window', () => {
    let now = 1_000_000;
    const throttle = new SignInThrottle(() => new Date(now));
    for (let i = 0; i < EMAIL_FAILURE_LIMIT; i += 1) {
      expect(throttle.retryAfterSeconds('A@example.com', '10.0.0.1')).toBe(0);
      throttle.recordFailure('A@example.com', '10.0.0.1');
      now += 60_000;
    }
    // The first failure was 5 minutes ago: 10 minutes to wait, whatever the case of the email.
    expect(throttle.retryAfterSeconds('a@EXAMPLE.com', '10.0.0.2')).toBe(10 * 60);
    expect(throttle.retryAfterSeconds('b@example.com', '10.0.0.1')).toBe(0);
    now += 10 * 60_000;
    expect(throttle.retryAfterSeconds('a@example.com', '10.0.0.2')).toBe(0);
  });

  it('refuses an address after 30 failures across emails; a success clears the email only', () => {
    const now = 5_000_000;
    const throttle = new SignInThrottle(() => new Date(now));
    for (let i = 0; i < IP_FAILURE_LIMIT; i += 1) throttle.recordFailure(`user${i}@example.com`, '10.0.0.9');
    expect(throttle.retryAfterSeconds('new@example.com', '10.0.0.9')).toBe(FAILURE_WINDOW_MS / 1000);
    throttle.recordSuccess('user0@example.com');
    expect(throttle.retryAfterSeconds('new@example.com', '10.0.0.9')).toBe(FAILURE_WINDOW_MS / 1000);
    expect(throttle.retryAfterSeconds('new@example.com', '10.0.0.10')).toBe(0);
  });
});
