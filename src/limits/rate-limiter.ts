import type { FastifyReply } from 'fastify';
import type { RateLimit } from '../config.js';
import { ApiError } from '../errors/api-error.js';
import { TokenBuckets } from './token-buckets.js';

/** The IETF RateLimit-Policy value (draft-ietf-httpapi-ratelimit-headers): quota q per window w seconds. */
export function rateLimitPolicy(limit: RateLimit): string {
  return `"default";q=${limit.requests};w=${limit.windowSeconds}`;
}

/**
 * The one set of buckets of an app, shared by the API's hooks and the console's search, so that an
 * account's calls count together wherever they are made. A bucket is named by its client: an
 * account by its id as it is (a UUID, so no string is built per request), which every one of its
 * keys and its console sessions draw from (design §11.6), and an address by its `ip:…`/`ip6:…` key,
 * which is never shaped like a UUID (see addressKey), so the two can never share a bucket.
 */
export class RateLimiter {
  readonly #buckets: TokenBuckets;
  readonly #policy: string;

  constructor(
    readonly limit: RateLimit,
    now?: () => number,
  ) {
    this.#buckets = new TokenBuckets(limit, now);
    this.#policy = rateLimitPolicy(limit);
  }

  /**
   * Takes one request from `client`'s bucket and sets the RateLimit headers on the reply; the
   * refusal (429 with Retry-After) to raise when the bucket is empty, else undefined.
   */
  take(client: string, reply: FastifyReply): ApiError | undefined {
    const decision = this.#buckets.take(client);
    reply.header('ratelimit-policy', this.#policy);
    reply.header('ratelimit', `"default";r=${decision.remaining};t=${decision.resetSeconds}`);
    if (decision.allowed) return undefined;
    const { requests, windowSeconds } = this.limit;
    return new ApiError(
      'rate_limited',
      `Too many requests: at most ${requests} per ${windowSeconds === 1 ? 'second' : 'minute'}; retry in ${decision.retryAfterSeconds} s.`,
      undefined,
      { 'retry-after': decision.retryAfterSeconds },
    );
  }
}
