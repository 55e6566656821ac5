import { addressKey } from '../limits/address-key.js';

/**
 * Failures allowed per email from one client address within the window before sign-in for that
 * email from that address is refused without a check. Per email and address together, not per
 * email: a limit per email alone let anyone lock its owner out from anywhere with five wrong
 * passwords.
 */
export const PAIR_FAILURE_LIMIT = 5;
/**
 * Failures allowed per client address. Higher than per email: many honest users can share one
 * address (an office behind NAT), while one address guessing across many emails still stops.
 * The address is Fastify's `request.ip`, without a port: behind a reverse proxy that is the
 * proxy's own address unless the app is built with `trustProxy` for it. An IPv6 client counts by
 * its /64, the block one subscriber is usually given.
 */
export const IP_FAILURE_LIMIT = 30;
export const FAILURE_WINDOW_MS = 15 * 60 * 1000;
/**
 * Failures of one email, from any addresses, before its attempts are slowed. The slow-down is the
 * limit per email that cannot be turned into a lockout: an attempt is held, never refused.
 */
export const SLOW_AFTER_FAILURES = 5;
/** The first hold; each further failure of the email doubles it, up to {@link MAX_SLOWDOWN_MS}. */
export const FIRST_SLOWDOWN_MS = 250;
export const MAX_SLOWDOWN_MS = 5000;
export const MAX_TRACKED = 50_000;
/**
 * The most recent failures kept per counter: more than any limit, and more than the slow-down
 * needs to reach its longest hold, so that a flood at one email costs no more memory or time.
 */
const KEPT_PER_KEY = 64;

/** What {@link SignInThrottle.begin} decides about one attempt. */
export interface Attempt {
  /** Seconds to wait when the attempt is refused (answer 429); 0 when it may go ahead. */
  readonly retryAfterSeconds: number;
  /** When it may go ahead: how long to hold it before the password is checked. */
  readonly delayMs: number;
}

/** The hold of an email's next attempt after `failures` recent failures. */
export function slowdownMs(failures: number): number {
  if (failures < SLOW_AFTER_FAILURES) return 0;
  return Math.min(MAX_SLOWDOWN_MS, FIRST_SLOWDOWN_MS * 2 ** Math.min(failures - SLOW_AFTER_FAILURES, 30));
}

/**
 * Counts failed sign-ins (and wrong current passwords) over a sliding window three ways: per email
 * and client address together and per address, each refusing beyond its limit, and per email
 * alone, which only slows: guesses at one email spread over many addresses are held ever longer
 * (up to {@link MAX_SLOWDOWN_MS}), while its owner, signing in from an address of their own,
 * gets in with the right password after at most that wait. An attempt counts as a failure from
 * the moment it begins, before its slow password check: attempts sent in parallel cannot all pass
 * the limit while the first ones are still being checked. A successful attempt is taken back.
 *
 * The counters live in this instance's memory only: with N instances behind a load balancer an
 * attacker gets at most N times the limit, and a restart forgets them. That is the trade made for
 * keeping sign-in free of shared state; scrypt already makes each guess slow.
 */
export class SignInThrottle {
  readonly #failures = new Map<string, number[]>();

  constructor(private readonly clock: () => Date) {}

  /**
   * Begins an attempt: refused, or allowed after a hold, in which case it already counts as a
   * failure until {@link succeeded} takes it back.
   */
  begin(email: string, ip: string): Attempt {
    const now = this.clock().getTime();
    const { emailKey, pairKey, ipKey } = keysOf(email, ip);
    const wait = Math.max(this.#wait(pairKey, PAIR_FAILURE_LIMIT, now), this.#wait(ipKey, IP_FAILURE_LIMIT, now));
    if (wait > 0) return { retryAfterSeconds: Math.ceil(wait / 1000), delayMs: 0 };
    const delayMs = slowdownMs(this.#recent(emailKey, now).length);
    for (const key of [emailKey, pairKey, ipKey])
      this.#failures.set(key, [...this.#recent(key, now).slice(1 - KEPT_PER_KEY), now]);
    if (this.#failures.size > MAX_TRACKED) this.#evict(now);
    return { retryAfterSeconds: 0, delayMs };
  }

  /**
   * The attempt succeeded: it does not count, and the failures of its email from its address are
   * forgiven. Not those from other addresses: an attacker's guesses stay counted and slowed.
   */
  succeeded(email: string, ip: string): void {
    const { emailKey, pairKey, ipKey } = keysOf(email, ip);
    this.#failures.delete(pairKey);
    for (const key of [emailKey, ipKey]) this.#failures.get(key)?.pop();
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
   * below their limit (an email's below the slow-down), oldest first. A flood of new emails or
   * addresses cannot free a locked one. It frees a tenth of the room at once, so that a flood does
   * not pay a full scan per attempt.
   */
  #evict(now: number): void {
    const target = MAX_TRACKED * 0.9;
    for (const [key, list] of this.#failures) {
      if (list.every((at) => now - at >= FAILURE_WINDOW_MS)) this.#failures.delete(key);
    }
    for (const [key, list] of this.#failures) {
      if (this.#failures.size <= target) return;
      if (list.length < limitOf(key)) this.#failures.delete(key);
    }
  }
}

/** The three counters one attempt moves; their prefixes keep them apart (an address key starts `ip`). */
function keysOf(email: string, ip: string): { emailKey: string; pairKey: string; ipKey: string } {
  const normal = email.toLowerCase();
  const ipKey = addressKey(ip);
  return { emailKey: `email:${normal}`, pairKey: `pair:${ipKey} ${normal}`, ipKey };
}

function limitOf(key: string): number {
  if (key.startsWith('pair:')) return PAIR_FAILURE_LIMIT;
  if (key.startsWith('email:')) return SLOW_AFTER_FAILURES;
  return IP_FAILURE_LIMIT;
}
