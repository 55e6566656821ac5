import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction, onRequestHookHandler } from 'fastify';
import type { AppContext } from '../app-context.js';
import type { AuthResult } from '../auth/verify-key.js';
import { addressKey } from './address-key.js';
import type { RateLimiter } from './rate-limiter.js';

export const API_PREFIX = '/api/v1/';

/**
 * Which routes the limiter guards, and how it names their client, by the route's own path (the
 * pattern the router matched): the API for programs, the trace pages (their JSON form is part of
 * it) by account or address; the health probes by address. Deciding by route rather than by the raw
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
 * route is registered; call it before any route is added. A request with a valid key counts against
 * its account's bucket, which all the account's keys share (design §11.6: a key is free to make, so
 * a limit per key would be no limit); one without a valid key counts against its client address
 * (without a port; an IPv6 client by its /64), so a flood of made-up keys is one client. The key is
 * verified here, once; the route's auth hook reuses the result. A refused request is answered 429
 * before anything is read or charged.
 */
export function installRateLimits(app: FastifyInstance, ctx: AppContext, limiter: RateLimiter): void {
  const hooks = rateLimitHooks(ctx, limiter);
  app.addHook('onRoute', (route) => {
    const kind = limitedBy(route.url);
    if (kind === undefined) return;
    const own = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    route.onRequest = [hooks[kind], ...own];
  });
}

/**
 * The two hooks. Callback hooks, not async ones: a known key (every call after its first) passes
 * without a promise.
 */
function rateLimitHooks(ctx: AppContext, limiter: RateLimiter): Record<'caller' | 'address', onRequestHookHandler> {
  const take = (client: string, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const refused = limiter.take(client, reply);
    if (refused === undefined) done();
    else done(refused);
  };
  // Everyone shares the published test token: it counts per address.
  const admit = (request: FastifyRequest, reply: FastifyReply, result: AuthResult, done: HookHandlerDoneFunction) => {
    if (result.ok) request.caller = result;
    take(result.ok && result.mode === 'account' ? result.accountId : addressKey(request.ip), reply, done);
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
