export interface RetryOptions {
  /** Further attempts after a 429 or 503; 0 turns retrying off. */
  maxRetries: number;
  /** Longest wait honoured, in seconds; a longer Retry-After is answered at once with the error. */
  maxWaitSeconds: number;
  fetch: (input: Request) => Promise<Response>;
  sleep: (ms: number) => Promise<void>;
}

const RETRIED = new Set([429, 503]);

/** Seconds from a Retry-After header: delay-seconds or an HTTP date; undefined if absent or unreadable. */
export function retryAfterSeconds(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  if (/^[0-9]+$/.test(value.trim())) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * A fetch that waits and tries again when the server says "not now" (429 Too Many Requests, 503
 * Service Unavailable), as long as the server tells how long (Retry-After, else 1 s) and the wait
 * is reasonable. A refused call costs nothing, so retrying it never pays twice.
 */
export function retryingFetch(options: RetryOptions): (input: Request) => Promise<Response> {
  return async (input) => {
    for (let attempt = 0; ; attempt++) {
      const response = await options.fetch(input.clone());
      if (!RETRIED.has(response.status) || attempt >= options.maxRetries) return response;
      const wait = retryAfterSeconds(response.headers.get('retry-after')) ?? 1;
      if (wait > options.maxWaitSeconds) return response;
      await response.body?.cancel();
      await options.sleep(wait * 1000);
    }
  };
}
