import { METHODS } from 'node:http';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { methodNotAllowed } from './errors.js';

/**
 * Route options of every API operation. Fastify would answer HEAD for each GET route by running
 * the GET handler, which on the API means a billed call with no body to show for it.
 */
export const GET_ONLY = { exposeHeadRoute: false } as const;

/**
 * Remembers every API path as it is registered, so that {@link refuseOtherMethods} can answer
 * every other method on it with 405 and `Allow: GET` (an unknown path stays a 404).
 */
export function collectApiPaths(app: FastifyInstance, prefix: string): Set<string> {
  const paths = new Set<string>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (route.url.startsWith(prefix) && methods.includes('GET')) paths.add(route.url);
  });
  return paths;
}

/**
 * Lets the router see every method Node's parser accepts (PROPFIND, LOCK, SEARCH …), not only
 * Fastify's common ones, so {@link refuseOtherMethods} answers them 405 too instead of 404.
 * Must run before any route is added. CONNECT never reaches a route (it asks for a tunnel).
 */
export function routeEveryMethod(app: FastifyInstance): void {
  for (const method of METHODS) {
    if (method !== 'CONNECT' && !app.supportedMethods.includes(method)) app.addHttpMethod(method);
  }
}

/** Registers the 405 answers; must come after the API routes. Refused before any body is read. */
export function refuseOtherMethods(paths: ReadonlySet<string>): FastifyPluginAsync {
  return async (app) => {
    const methods = app.supportedMethods.filter((m) => m !== 'GET');
    for (const url of paths) {
      app.route({
        method: methods,
        url,
        schema: { hide: true },
        onRequest: async (request) => {
          throw methodNotAllowed(request.method);
        },
        handler: async (request) => {
          throw methodNotAllowed(request.method);
        },
      });
    }
  };
}
