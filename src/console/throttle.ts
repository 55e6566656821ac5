import { addressKey } from '../limits/address-key.js';

/** Failures allowed per email within the window before sign-in is refused without a check. */
export const EMAIL_FAILURE_LIMIT = 5;
/**
 * Failures allowed per client address. Higher than per email: many honest users can share one
 * address (an office behind NAT), while one address guessing across many emails still stops.
 * The address is Fastify's `request.ip`: behind a reverse proxy that is the proxy's own address
 * unless the app is built with `trustProxy` for it. An IPv6 client counts by its /64, the block
 * one subscriber is usually given.
 */
export const IP_FAILURE_LIMIT = 30;
export const FAILURE_WINDOW_MS = 15 * 60 * 1000;
export const MAX_TRACKED = 50_000;

/**
 * Counts failed sign-ins (and wrong current passwords) per email and per client address over a
 * sliding window. An attempt counts as a failure from the moment it begins, before its slow
 * password check: attempts sent in parallel cannot all pass the limit while the first ones are
 * still being checked. A successful attempt is taken back.
 *
 * The counters live in this instance's memory only: with N instances behind a load balancer an
 * attacker gets at most N times the limit, and a restart forgets them. That is the trade made for
 * keeping sign-in free of shared state; scrypt already makes each guess slow.
 */
export class SignInThrottle {
  readonly #failures = new Map<string, number[]>();

  constructor(private readonly clock: () => Date) {}

  /**
   * Begins an attempt: the seconds to wait when it is refused, or 0 when it may go ahead, in which
   * case it already counts as a failure until {@link succeeded} takes it back.
   */
  begin(email: string, ip: string): number {
    const now = this.clock().getTime();
    const emailKey = `email:${email.toLowerCase()}`;
    const ipKey = addressKey(ip);
    const wait = Math.max(this.#wait(emailKey, EMAIL_FAILURE_LIMIT, now), this.#wait(ipKey, IP_FAILURE_LIMIT, now));
    if (wait > 0) return Math.ceil(wait / 1000);
    for (const key of [emailKey, ipKey]) this.#failures.set(key, [...this.#recent(key, now), now]);
    if (this.#failures.size > MAX_TRACKED) this.#evict(now);
    return 0;
  }

  /** The attempt succeeded: it does not count, and its email's failures are forgiven (not its address's). */
  succeeded(email: string, ip: string): void {
    this.#failures.delete(`email:${email.toLowerCase()}`);
    const ipKey = addressKey(ip);
    const list = this.#failures.get(ipKey);
    if (list !== undefined) list.pop();
  }

  #recent(key: string, now: number): number[] {
    return (this.#failures.get(key) ?? []).filter((at) => now - at < FAILURE_WINDOW_MS);
  }

  #wait(key: string, limit: number, now: number): number {
    const recent = this.#recent(key, now);
    if (recent.length < limit) return 0;
    // Allowed again once enough of the failures have aged out of the window.
    const oldestThatCounts = recent[recent.length - limit] ?? now;
    return Math.max(1, oldestThatCounts + FAILURE_WINDOW_MS - now);
  }

  /**
   * Keeps memory bounded without lifting a lock: expired counters go first, then counters still
   * below their limit, oldest first. A flood of new emails or addresses cannot free a locked one.
   * It frees a tenth of the room at once, so that a flood does not pay a full scan per attempt.
   */
  #evict(now: number): void {
    const target = MAX_TRACKED * 0.9;
    for (const [key, list] of this.#failures) {
      if (list.every((at) => now - at >= FAILURE_WINDOW_MS)) this.#failures.delete(key);
    }
    for (const [key, list] of this.#failures) {
      if (this.#failures.size <= target) return;
      const limit = key.startsWith('email:') ? EMAIL_FAILURE_LIMIT : IP_FAILURE_LIMIT;
      if (list.length < limit) this.#failures.delete(key);
    }
  }
}
