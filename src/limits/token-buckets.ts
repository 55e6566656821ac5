import type { RateLimit } from '../config.js';

/** What one request learns from its bucket: whether it may pass, and what to tell the client. */
export interface RateDecision {
  allowed: boolean;
  /** Whole requests left in the bucket after this one. */
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
  /** Seconds until one request may pass again; 0 when this one passed. */
  retryAfterSeconds: number;
}

/** Beyond this many buckets, full ones (clients that have been quiet long enough) are dropped. */
const SWEEP_AT = 100_000;

/**
 * One token bucket per client, in memory: each instance limits on its own (a shared counter would
 * put a database round trip on every call). A bucket holds up to `requests` tokens and refills
 * continuously at `requests` per window, so a client may burst a full window's worth and then
 * proceeds at the steady rate.
 */
export class TokenBuckets {
  readonly #buckets = new Map<string, { tokens: number; at: number }>();
  readonly #perMs: number;

  constructor(
    readonly limit: RateLimit,
    /** Milliseconds on a monotonic clock. */
    private readonly now: () => number = () => performance.now(),
  ) {
    this.#perMs = limit.requests / (limit.windowSeconds * 1000);
  }

  take(client: string): RateDecision {
    const now = this.now();
    const capacity = this.limit.requests;
    let bucket = this.#buckets.get(client);
    if (bucket === undefined) {
      if (this.#buckets.size >= SWEEP_AT) this.#sweep(now);
      bucket = { tokens: capacity, at: now };
      this.#buckets.set(client, bucket);
    } else {
      bucket.tokens = Math.min(capacity, bucket.tokens + Math.max(0, now - bucket.at) * this.#perMs);
      bucket.at = now;
    }
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    return {
      allowed,
      remaining: Math.floor(bucket.tokens),
      resetSeconds: Math.ceil((capacity - bucket.tokens) / this.#perMs / 1000),
      retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - bucket.tokens) / this.#perMs / 1000)),
    };
  }

  #sweep(now: number): void {
    const capacity = this.limit.requests;
    for (const [client, bucket] of this.#buckets) {
      if (bucket.tokens + (now - bucket.at) * this.#perMs >= capacity) this.#buckets.delete(client);
    }
  }
}
