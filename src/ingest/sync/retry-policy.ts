/** How a request that failed for a passing reason (429, 5xx, a dropped connection) is tried again. */
export interface RetryPolicy {
  /** Tries in all, the first included; the request is given up after the last. */
  readonly tries: number;
  /** The delay before the second try; each further try doubles it. */
  readonly baseMs: number;
  /** No backoff delay grows past this. */
  readonly maxMs: number;
  /** The longest `Retry-After` honoured; a server asking for more has the request given up. */
  readonly maxRetryAfterMs: number;
}

/** SEC asks clients that went too fast to wait about ten minutes; a sync waits no longer than that. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = Object.freeze({
  tries: 5,
  baseMs: 1000,
  maxMs: 60_000,
  maxRetryAfterMs: 600_000,
});

/**
 * A `Retry-After` value in milliseconds from `now`: delay-seconds or an HTTP-date (RFC 9110
 * §10.2.3); undefined when absent or not one of the two. A date in the past is no wait at all.
 */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^[0-9]+$/.test(text)) return Number(text) * 1000;
  // Only the date forms HTTP allows start with a weekday; Date.parse would take much else.
  if (!/^[A-Za-z]{3},? /.test(text) && !/^[A-Za-z]{6,9}, /.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * The wait before try `attempt + 1` after try `attempt` (1-based) failed: exponential backoff with
 * "equal jitter" (half fixed, half random), so that many clients failing together do not come back
 * together, and never shorter than what the server asked for in `Retry-After`. Undefined: the
 * server asks for longer than the policy waits, so the request is given up.
 */
export function retryDelayMs(
  attempt: number,
  retryAfterMs: number | undefined,
  policy: RetryPolicy,
  random: () => number,
): number | undefined {
  if (retryAfterMs !== undefined && retryAfterMs > policy.maxRetryAfterMs) return undefined;
  const backoff = Math.min(policy.maxMs, policy.baseMs * 2 ** (attempt - 1));
  const jittered = backoff / 2 + (backoff / 2) * random();
  return Math.ceil(Math.max(jittered, retryAfterMs ?? 0));
}
