export interface RetryOptions {
  /** Further attempts after a retryable failure; 0 turns retrying off. */
  maxRetries: number;
  /** Longest wait honoured, in seconds; a longer Retry-After is answered at once with the error. */
  maxWaitSeconds: number;
  /** First backoff in ms, doubled after each further failure (jittered). */
  backoffMs: number;
  /** Longest backoff in ms. */
  maxBackoffMs: number;
  fetch: (input: Request) => Promise<Response>;
  /** Waits `ms`, or rejects with the signal's reason once it aborts. */
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  random?: () => number;
}

/**
 * Statuses worth another try: the server or a proxy in front of it is busy or restarting (502,
 * 503, 504), or the caller goes too fast (429). A refused call costs nothing, so trying again
 * never pays twice.
 */
export const RETRIED_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/** Seconds from a Retry-After header: delay-seconds or an HTTP date; undefined if absent or unreadable. */
export function retryAfterSeconds(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  if (/^[0-9]+$/.test(value.trim())) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * Exponential backoff with "equal jitter": half the doubled delay for sure, the other half at
 * random, so that many clients failing together do not come back together.
 */
export function backoffDelayMs(attempt: number, options: Pick<RetryOptions, 'backoffMs' | 'maxBackoffMs' | 'random'>): number {
  const ceiling = Math.min(options.maxBackoffMs, options.backoffMs * 2 ** attempt);
  return ceiling / 2 + (ceiling / 2) * (options.random ?? Math.random)();
}

/** A failure of fetch itself (no answer), as opposed to the caller's signal aborting it. */
function isConnectionFailure(error: unknown, signal: AbortSignal): boolean {
  return !signal.aborted && !(error instanceof DOMException && (error.name === 'AbortError' || error.name === 'TimeoutError'));
}

/**
 * A fetch that tries again when the answer says "not now" (429, 502, 503, 504) or none came
 * (connection refused or reset): after the Retry-After the server gave, else after an exponential,
 * jittered backoff. It stops at `maxRetries`, at a Retry-After longer than `maxWaitSeconds`, and as
 * soon as the request's signal aborts (a timeout or the caller).
 */
export function retryingFetch(options: RetryOptions): (input: Request) => Promise<Response> {
  return async (input) => {
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await options.fetch(input.clone());
      } catch (error) {
        if (attempt >= options.maxRetries || !isConnectionFailure(error, input.signal)) throw error;
        await options.sleep(backoffDelayMs(attempt, options), input.signal);
        continue;
      }
      if (!RETRIED_STATUSES.has(response.status) || attempt >= options.maxRetries) return response;
      const wait = retryAfterSeconds(response.headers.get('retry-after'));
      if (wait !== undefined && wait > options.maxWaitSeconds) return response;
      await response.body?.cancel();
      await options.sleep(wait === undefined ? backoffDelayMs(attempt, options) : wait * 1000, input.signal);
    }
  };
}

/** setTimeout as a promise that gives up, with the signal's reason, when the signal aborts. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
