import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../app-context.js';
import { ConsoleAuth } from '../console/console-auth.js';
import { accessOf, findTracePoint, loadProvenance } from '../datasets/trace-lookup.js';
import { unauthorized } from '../errors/api-error.js';
import { TEST_MODE_HEADER } from '../http/auth-hook.js';
import { sendError } from '../http/errors.js';
import { installPageErrors, sendErrorPage, sendPage, wantsJson } from '../http/respond.js';
import { isMockTraceId, mockProvenance } from '../mock/mock-provenance.js';
import { mockTracePage } from './mock-trace.js';

/**
 * `/trace/{id}`: where a data point can be verified. Anyone sees its company, period and source
 * document; its values only an account signed in to the console that bought the company-period
 * in the data point's dataset. Each dataset finds and renders its own points. Asked for JSON
 * (`Accept: application/json`), it answers the same as provenance data, whose values an account
 * sees by its console session or by an API key (design §11.3); a key that fails is a 401.
 */
export function traceRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    installPageErrors(app);
    const auth = new ConsoleAuth(ctx);
    const db = ctx.db.kysely;
    app.get<{ Params: { id: string } }>('/trace/:id', { schema: { hide: true } }, async (request, reply) => {
      if (isMockTraceId(request.params.id)) {
        reply.header('vary', 'accept').header(TEST_MODE_HEADER, 'true');
        const id = request.params.id.toLowerCase();
        if (wantsJson(request.headers.accept)) return reply.send(mockProvenance(id, ctx.config.publicUrl));
        return sendPage(reply, 200, mockTracePage(id));
      }
      if (wantsJson(request.headers.accept)) {
        reply.header('vary', 'accept').header('cache-control', 'no-store');
        let accountId = (await auth.current(request))?.accountId;
        if (accountId === undefined && request.headers.authorization !== undefined) {
          const caller = await ctx.verifier.verify(request.headers.authorization);
          if (!caller.ok) {
            return sendError(request, reply.header('www-authenticate', 'Bearer'), 401, unauthorized(caller.failure).message);
          }
          if (caller.mode === 'account') accountId = caller.accountId;
        }
        const provenance = await loadProvenance(ctx.datasets, db, request.params.id, accountId, ctx.config.publicUrl);
        if (provenance === undefined) return sendError(request, reply, 404, 'No data point has this id.');
        return reply.send(provenance);
      }
      reply.header('vary', 'accept');
      const found = await findTracePoint(ctx.datasets, db, request.params.id);
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
