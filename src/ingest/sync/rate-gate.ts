/** Time as the sync machinery sees it: injected so that tests can reason about pacing. */
export interface SyncClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const SYSTEM_CLOCK: SyncClock = Object.freeze({
  now: () => Date.now(),
  sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
});

/**
 * Spaces the starts of requests to one source at least `intervalMs` apart, however many are in
 * flight, so a sync never goes past the source's published rate. A `Retry-After` from the source
 * holds every request, not only the one it answered: the source is asking the client to slow down.
 */
export class RateGate {
  #next = 0;
  #held = 0;

  constructor(
    private readonly intervalMs: number,
    private readonly clock: SyncClock,
  ) {}

  /** Resolves when the next request may start, and books its slot. */
  async wait(): Promise<void> {
    for (;;) {
      const now = this.clock.now();
      if (this.#held > now) {
        await this.clock.sleep(this.#held - now);
        continue;
      }
      const at = Math.max(now, this.#next);
      this.#next = at + this.intervalMs;
      if (at > now) await this.clock.sleep(at - now);
      // A hold that came while this request waited for its slot applies to it too.
      if (this.#held <= this.clock.now()) return;
    }
  }

  /** No request starts before `at` (ms since the epoch). */
  holdUntil(at: number): void {
    this.#held = Math.max(this.#held, at);
  }
}
