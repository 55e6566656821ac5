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
 * flight, so a sync never goes past the source's published rate. Requests take their turns one
 * after another, and the interval runs from the moment the previous one actually went, not from
 * when it was due: a timer that fires late (a busy machine) would otherwise let the next request
 * follow closer, and the source, counting arrivals, would see a burst. A `Retry-After` from the
 * source holds every request, not only the one it answered: the source asks the client to slow down.
 */
export class RateGate {
  #tail: Promise<void> = Promise.resolve();
  #last = Number.NEGATIVE_INFINITY;
  #held = 0;

  constructor(
    private readonly intervalMs: number,
    private readonly clock: SyncClock,
  ) {}

  /** Resolves when the next request may start; the caller starts it at once. */
  wait(): Promise<void> {
    const turn = this.#tail.then(() => this.#take());
    this.#tail = turn.catch(() => undefined);
    return turn;
  }

  /** No request starts before `at` (ms since the epoch). */
  holdUntil(at: number): void {
    this.#held = Math.max(this.#held, at);
  }

  async #take(): Promise<void> {
    for (;;) {
      const now = this.clock.now();
      const at = Math.max(this.#held, this.#last + this.intervalMs);
      if (at <= now) {
        this.#last = now;
        return;
      }
      await this.clock.sleep(at - now);
    }
  }
}
