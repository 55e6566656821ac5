import { METHODS } from 'node:http';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { methodNotAllowed } from '../errors/api-error.js';

/**
 * Route options of every API operation. Fastify would answer HEAD for each GET route by running
 * the GET handler, which on the API means a billed call with no body to show for it.
 */
export const GET_ONLY = { exposeHeadRoute: false } as const;

/**
 * The methods an API path answers: GET, except the documented POST operations (a dataset's batch,
 * company resolution), which take a JSON body of jobs and answer POST only, and the webhooks
 * (design §20.4), whose paths answer what their operations declare (GET and POST, DELETE).
 */
const ANSWERED = ['GET', 'POST', 'DELETE'] as const;

/**
 * Remembers every API path as it is registered, with the method it answers, so that
 * {@link refuseOtherMethods} can answer every other method on it with 405 and `Allow` (an unknown
 * path stays a 404).
 */
export function collectApiPaths(app: FastifyInstance, prefix: string): Map<string, string[]> {
  const paths = new Map<string, string[]>();
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(prefix)) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const answered = ANSWERED.filter((m) => methods.includes(m));
    if (answered.length === 0) return;
    const known = paths.get(route.url) ?? [];
    paths.set(
      route.url,
      ANSWERED.filter((m) => known.includes(m) || answered.includes(m)),
    );
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
export function refuseOtherMethods(paths: ReadonlyMap<string, readonly string[]>): FastifyPluginAsync {
  return async (app) => {
    // Read before adding: the refusals are routes too.
    for (const [url, methods] of [...paths]) {
      const allowed = methods.join(', ');
      app.route({
        method: app.supportedMethods.filter((m) => !methods.includes(m)),
        url,
        schema: { hide: true },
        onRequest: async (request) => {
          throw methodNotAllowed(request.method, allowed);
        },
        handler: async (request) => {
          throw methodNotAllowed(request.method, allowed);
        },
      });
    }
  };
}
