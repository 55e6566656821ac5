/** Failures allowed per email within the window before sign-in is refused without a check. */
export const EMAIL_FAILURE_LIMIT = 5;
/**
 * Failures allowed per client address. Higher than per email: many honest users can share one
 * address (an office behind NAT), while one address guessing across many emails still stops.
 * The address is Fastify's `request.ip`: behind a reverse proxy that is the proxy's own address
 * unless the app is built with `trustProxy` for it.
 */
export const IP_FAILURE_LIMIT = 30;
export const FAILURE_WINDOW_MS = 15 * 60 * 1000;
const MAX_TRACKED = 50_000;

/**
 * Counts failed sign-ins per email and per client address over a sliding window.
 *
 * The counters live in this instance's memory only: with N instances behind a load balancer an
 * attacker gets at most N times the limit, and a restart forgets them. That is the trade made for
 * keeping sign-in free of shared state; scrypt already makes each guess slow.
 */
export class SignInThrottle {
  readonly #failures = new Map<string, number[]>();

  constructor(private readonly clock: () => Date) {}

  /** Seconds until a further attempt is allowed, or 0 when it is allowed now. */
  retryAfterSeconds(email: string, ip: string): number {
    const now = this.clock().getTime();
    const wait = Math.max(
      this.#wait(`email:${email.toLowerCase()}`, EMAIL_FAILURE_LIMIT, now),
      this.#wait(`ip:${ip}`, IP_FAILURE_LIMIT, now),
    );
    return Math.ceil(wait / 1000);
  }

  recordFailure(email: string, ip: string): void {
    const now = this.clock().getTime();
    if (this.#failures.size > MAX_TRACKED) this.#prune(now);
    for (const key of [`email:${email.toLowerCase()}`, `ip:${ip}`]) {
      const recent = this.#recent(key, now);
      recent.push(now);
      this.#failures.set(key, recent);
    }
  }

  /** A successful sign-in clears its email's count (not the address's: one known password must not reset it). */
  recordSuccess(email: string): void {
    this.#failures.delete(`email:${email.toLowerCase()}`);
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

  #prune(now: number): void {
    for (const [key, list] of this.#failures) {
      if (list.every((at) => now - at >= FAILURE_WINDOW_MS)) this.#failures.delete(key);
    }
    if (this.#failures.size > MAX_TRACKED) this.#failures.clear();
  }
}
