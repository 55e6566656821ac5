import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.js';
import type { AuthResult } from '../auth/verify-key.js';
import { unauthorized } from './errors.js';

export type Caller = Extract<AuthResult, { ok: true }>;

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
}

/**
 * onRequest hook of every /api/v1 data route: 401 comes before any other check. The rate limiter,
 * when on, has verified a valid key already.
 */
export function authHook(ctx: AppContext) {
  return async (request: FastifyRequest): Promise<void> => {
    if (request.caller !== null) return;
    const result = await ctx.verifier.verify(request.headers.authorization);
    if (!result.ok) throw unauthorized(result.failure);
    request.caller = result;
  };
}

export function callerOf(request: FastifyRequest): Caller {
  if (request.caller === null) throw new Error('route is missing the auth hook');
  return request.caller;
}
