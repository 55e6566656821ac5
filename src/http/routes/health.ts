import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'kysely';
import type { AppContext } from '../../app-context.js';

/**
 * Probes for a load balancer: `/healthz` says the process is alive, `/readyz` that it can reach
 * its database. While the server shuts down the app answers 503 to new requests, so a draining
 * instance leaves the pool before it stops.
 */
export function healthRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    app.get('/healthz', { schema: { hide: true }, logLevel: 'warn' }, async (_request, reply) =>
      reply.type('text/plain; charset=utf-8').send('ok'),
    );
    app.get('/readyz', { schema: { hide: true }, logLevel: 'warn' }, async (request, reply) => {
      reply.type('text/plain; charset=utf-8');
      try {
        await sql`select 1`.execute(ctx.db.kysely);
        return reply.send('ready');
      } catch (error) {
        request.log.warn({ err: error }, 'database unreachable');
        return reply.code(503).send('database unreachable');
      }
    });
  };
}
