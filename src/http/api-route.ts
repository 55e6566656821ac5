import type { AppContext } from '../app-context.js';
import { authHook } from './auth-hook.js';
import { GET_ONLY } from './method-discipline.js';
import { queryGuard } from './query-guard.js';

/**
 * The options of every /api/v1 operation: GET only, its schema, and its checks in the order the
 * API answers them, the key (401) before the query (400).
 */
export function apiRoute<S extends { querystring: unknown }>(ctx: AppContext, schema: S) {
  return { ...GET_ONLY, schema, onRequest: authHook(ctx), preValidation: queryGuard(schema.querystring) };
}
