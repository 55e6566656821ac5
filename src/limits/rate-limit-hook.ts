import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction, onRequestHookHandler } from 'fastify';
import type { AppContext } from '../app-context.js';
import type { AuthResult } from '../auth/verify-key.js';
import type { RateLimit } from '../config.js';
import { ApiError } from '../errors/api-error.js';
import { addressKey } from './address-key.js';
import { TokenBuckets } from './token-buckets.js';

export const API_PREFIX = '/api/v1/';

/** The IETF RateLimit-Policy value (draft-ietf-httpapi-ratelimit-headers): quota q per window w seconds. */
export function rateLimitPolicy(limit: RateLimit): string {
  return `"default";q=${limit.requests};w=${limit.windowSeconds}`;
}

/**
 * Which routes the limiter guards, and how it names their client, by the route's own path (the
 * pattern the router matched): the API for programs, the trace pages (their JSON form is part of
 * it) by key or address; the health probes by address. Deciding by route rather than by the raw
 * request target means no spelling of a path (`/%61pi/v1/…`, `http://host/api/v1/…`) reaches a
 * route without passing here.
 */
export function limitedBy(routeUrl: string): 'caller' | 'address' | undefined {
  if (routeUrl.startsWith(API_PREFIX) || routeUrl.startsWith('/trace/')) return 'caller';
  if (routeUrl === '/healthz' || routeUrl === '/readyz') return 'address';
  return undefined;
}

/**
 * Installs the limiter as the first onRequest hook of every route {@link limitedBy} names, as each
 * route is registered; call it before any route is added. A request counts against its API key's
 * bucket, or against its client address (an IPv6 client by its /64) when it carries no valid key,
 * so a flood of made-up keys is one client. The key is verified here, once; the route's auth hook
 * reuses the result. A refused request is answered 429 before anything is read or charged.
 */
export function installRateLimits(app: FastifyInstance, ctx: AppContext, limit: RateLimit): void {
  const hooks = rateLimitHooks(ctx, limit);
  app.addHook('onRoute', (route) => {
    const kind = limitedBy(route.url);
    if (kind === undefined) return;
    const own = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    route.onRequest = [hooks[kind], ...own];
  });
}

/**
 * The two hooks, sharing one set of buckets. Callback hooks, not async ones: a known key (every
 * call after its first) passes without a promise.
 */
function rateLimitHooks(ctx: AppContext, limit: RateLimit): Record<'caller' | 'address', onRequestHookHandler> {
  const buckets = new TokenBuckets(limit);
  const policy = rateLimitPolicy(limit);
  // A bucket is named by the key id (a UUID) or the client address key (`ip:…`, `ip6:…/64`,
  // never a UUID's shape), so the two kinds of names cannot meet.
  const take = (client: string, reply: FastifyReply, done: HookHandlerDoneFunction) => {
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
  // Everyone shares the published test token: it counts per address.
  const admit = (request: FastifyRequest, reply: FastifyReply, result: AuthResult, done: HookHandlerDoneFunction) => {
    if (result.ok) request.caller = result;
    take(result.ok && result.mode === 'account' ? result.keyId : addressKey(request.ip), reply, done);
  };
  return {
    caller(request, reply, done) {
      ctx.verifier.answer(request.headers.authorization, (result) => admit(request, reply, result, done), done);
    },
    address(request, reply, done) {
      take(addressKey(request.ip), reply, done);
    },
  };
}
