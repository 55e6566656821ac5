import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { AppContext } from '../app-context.js';
import type { AuthResult } from '../auth/verify-key.js';
import { badRequest, unauthorized } from '../errors/api-error.js';
import type { QueryCheck } from './query-guard.js';

export type Caller = Extract<AuthResult, { ok: true }>;

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
}

const AUTHORIZATION = 'authorization';

/**
 * Node keeps the first of repeated Authorization headers; a proxy in front may keep the last, and
 * the two would then disagree on who is calling. So a repeat is refused outright.
 */
function authorizationCount(rawHeaders: string[]): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i];
    if (name?.length === AUTHORIZATION.length && name.toLowerCase() === AUTHORIZATION) count += 1;
  }
  return count;
}

const ADMIT_ALL: QueryCheck = () => undefined;

/**
 * onRequest hook of every /api/v1 data route: 401 comes before any other check; then the route's
 * query check (the 400s of query-guard.ts), when given. The rate limiter, when on, has verified a
 * valid key already. A callback hook, not an async one: a known key (every call after its first)
 * is answered without a promise.
 */
export function authHook(ctx: AppContext, checkQuery: QueryCheck = ADMIT_ALL) {
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    if (authorizationCount(request.raw.rawHeaders) > 1) {
      done(badRequest("Header 'Authorization' is given more than once: send exactly one."));
      return;
    }
    if (request.caller !== null) {
      if (request.caller.mode === 'test') reply.header(TEST_MODE_HEADER, 'true');
      done(checkQuery(request));
      return;
    }
    ctx.verifier.answer(
      request.headers.authorization,
      (result) => {
        const refused = admit(request, reply, result);
        done(refused ?? checkQuery(request));
      },
      done,
    );
  };
}

/** Every answer to the test token says it is mock data, errors included, so no one mistakes it for live. */
export const TEST_MODE_HEADER = 'x-test-mode';

/** Admits the caller, or answers the 401. */
function admit(request: FastifyRequest, reply: FastifyReply, result: AuthResult): Error | undefined {
  if (!result.ok) return unauthorized(result.failure);
  request.caller = result;
  if (result.mode === 'test') reply.header(TEST_MODE_HEADER, 'true');
  return undefined;
}

export function callerOf(request: FastifyRequest): Caller {
  if (request.caller === null) throw new Error('route is missing the auth hook');
  return request.caller;
}
