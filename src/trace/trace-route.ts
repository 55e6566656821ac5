import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../app-context.js';
import { ConsoleAuth } from '../console/console-auth.js';
import { installPageErrors, sendErrorPage, sendPage } from '../web/respond.js';
import { wantsJson } from './provenance.js';
import { accessOf, findTracePoint, loadProvenance } from './trace-lookup.js';

/**
 * `/trace/{id}`: where a data point can be verified. Anyone sees its company, period and source
 * document; its values only an account signed in to the console that bought the company-period
 * in the data point's dataset. Each dataset finds and renders its own points. Asked for JSON
 * (`Accept: application/json`), it answers the same as provenance data.
 */
export function traceRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    installPageErrors(app);
    const auth = new ConsoleAuth(ctx);
    const db = ctx.db.kysely;
    app.get<{ Params: { id: string } }>('/trace/:id', { schema: { hide: true } }, async (request, reply) => {
      if (wantsJson(request.headers.accept)) {
        reply.header('vary', 'accept').header('cache-control', 'no-store');
        const session = await auth.current(request);
        const provenance = await loadProvenance(db, request.params.id, session?.accountId, ctx.config.publicUrl);
        if (provenance === undefined) {
          return reply.code(404).type('text/plain; charset=utf-8').send('No data point has this id.');
        }
        return reply.send(provenance);
      }
      reply.header('vary', 'accept');
      const found = await findTracePoint(db, request.params.id);
      if (found === undefined) {
        return sendErrorPage(
          reply,
          404,
          'No such data point',
          'There is no data point with this id. Check the link you followed.',
        );
      }
      const session = await auth.current(request);
      const access = await accessOf(db, found, session?.accountId);
      return sendPage(reply, 200, await found.point.page(access, ctx.config.publicUrl));
    });
  };
}
