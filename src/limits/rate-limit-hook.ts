import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { AppContext } from '../app-context.js';
import type { AuthResult } from '../auth/verify-key.js';
import type { RateLimit } from '../config.js';
import { ApiError } from '../http/errors.js';
import { TokenBuckets } from './token-buckets.js';

export const API_PREFIX = '/api/v1/';

/** The IETF RateLimit-Policy value (draft-ietf-httpapi-ratelimit-headers): quota q per window w seconds. */
export function rateLimitPolicy(limit: RateLimit): string {
  return `"default";q=${limit.requests};w=${limit.windowSeconds}`;
}

/**
 * onRequest hook of the whole app, first of all checks on /api/v1: a request counts against its
 * API key's bucket, or against its client address when it carries no valid key (so a flood of
 * made-up keys is one client). The key is verified here, once; the route's auth hook reuses the
 * result. A refused request is answered 429 before anything is read or charged. A callback hook,
 * not an async one: a known key (every call after its first) passes without a promise.
 */
export function rateLimitHook(ctx: AppContext, limit: RateLimit) {
  const buckets = new TokenBuckets(limit);
  const policy = rateLimitPolicy(limit);
  const admit = (request: FastifyRequest, reply: FastifyReply, result: AuthResult, done: HookHandlerDoneFunction) => {
    // A bucket is named by the key id (a UUID) or the client address (dots or colons, never a
    // UUID's shape), so the two kinds of names cannot meet. Everyone shares the published test
    // token: it counts per address.
    let client = request.ip;
    if (result.ok) {
      request.caller = result;
      if (result.mode === 'account') client = result.keyId;
    }
    const decision = buckets.take(client);
    reply.header('ratelimit-policy', policy);
    reply.header('ratelimit', `"default";r=${decision.remaining};t=${decision.resetSeconds}`);
    if (decision.allowed) {
      done();
      return;
    }
    done(
      new ApiError(
        'rate_limited',
        `Too many requests: at most ${limit.requests} per ${limit.windowSeconds === 1 ? 'second' : 'minute'}; retry in ${decision.retryAfterSeconds} s.`,
        undefined,
        { 'retry-after': decision.retryAfterSeconds },
      ),
    );
  };
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    if (!request.url.startsWith(API_PREFIX)) {
      done();
      return;
    }
    ctx.verifier.answer(request.headers.authorization, (result) => admit(request, reply, result, done), done);
  };
}
