import type { AppContext } from '../app-context.js';
import { authHook } from './auth-hook.js';
import { GET_ONLY } from './method-discipline.js';
import { queryCheck } from './query-guard.js';

/**
 * The options of every /api/v1 operation: GET only, its schema, and its checks in the order the
 * API answers them, the key (401) before the query (400): one onRequest hook does both (the query
 * is parsed before the first hook), then the schema validator runs.
 */
export function apiRoute<S extends { querystring: unknown }>(ctx: AppContext, schema: S) {
  return { ...GET_ONLY, schema, onRequest: authHook(ctx, queryCheck(schema.querystring)) };
}
