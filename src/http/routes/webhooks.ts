import { type Static, Type } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { ApiError, badRequest } from '../../errors/api-error.js';
import { datasetTables } from '../../events/event-record.js';
import { EVENT_TYPES } from '../../events/event-types.js';
import { AllowList, ForbiddenAddressError, hostOf, resolveSafely, urlProblem } from '../../webhooks/endpoint-safety.js';
import {
  createEndpoint,
  deleteEndpoint,
  ENDPOINTS_PER_ACCOUNT,
  type Endpoint,
  findEndpoint,
  listDeliveries,
  listEndpoints,
  redeliver,
  TooManyEndpointsError,
} from '../../webhooks/endpoints.js';
import { sendSample } from '../../webhooks/sample-event.js';
import type { SecretBox } from '../../webhooks/signing.js';
import { authHook, type Caller, callerOf } from '../auth-hook.js';
import { bodyChecker, jsonBodies, postRoute } from '../json-body.js';
import { GET_ONLY } from '../method-discipline.js';
import { queryCheck } from '../query-guard.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function bodySchema(datasets: readonly string[]) {
  return Type.Object(
    {
      url: Type.String({ minLength: 1, maxLength: 2000, description: 'an https:// URL of at most 2000 characters.' }),
      event_types: Type.Optional(
        Type.Array(
          Type.Union(
            EVENT_TYPES.map((e) => Type.Literal(e)),
            { description: `one of ${EVENT_TYPES.join(', ')}.` },
          ),
          {
            minItems: 1,
            maxItems: EVENT_TYPES.length,
            description: 'a list of event types (every type when absent).',
          },
        ),
      ),
      company_ids: Type.Optional(
        Type.Array(Type.String({ format: 'uuid', description: 'a company_id (UUID).' }), {
          minItems: 1,
          maxItems: 1000,
          description: 'a watchlist of 1 to 1000 company_ids (every company when absent).',
        }),
      ),
      datasets: Type.Optional(
        Type.Array(
          Type.Union(
            datasets.map((d) => Type.Literal(d)),
            { description: `one of ${datasets.join(', ')}.` },
          ),
          {
            minItems: 1,
            description: 'a list of datasets (every one when absent).',
          },
        ),
      ),
    },
    { additionalProperties: false },
  );
}

const shown = (e: Endpoint) => ({
  id: e.id,
  url: e.url,
  event_types: e.eventTypes,
  company_ids: e.companyIds,
  datasets: e.datasets,
  status: e.status,
  created_at: e.createdAt,
});

/** The live account a webhook call needs: the test token has none (test mode never reaches live endpoints). */
function accountOf(caller: Caller): string {
  if (caller.mode === 'test')
    throw badRequest('The test token cannot manage webhook endpoints: use a live key.', 'Authorization');
  return caller.accountId;
}

const notFound = () => new ApiError('not_found', 'No webhook endpoint of this account has this id.');

/**
 * The webhooks of an account (design §20.4, §20.5): `POST /api/v1/webhooks` registers an endpoint
 * and shows its signing secret once; `GET` lists them, `DELETE /api/v1/webhooks/{id}` removes one;
 * `GET /api/v1/webhooks/{id}/deliveries` is its delivery log, and
 * `POST /api/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver` sends one again;
 * `POST /api/v1/webhooks/{id}/test` sends a signed sample event now and says what the receiver
 * answered (design §20.6). Free.
 */
export function webhooksRoute(ctx: AppContext, box: SecretBox): FastifyPluginAsync {
  const datasets = [...datasetTables(ctx.datasets).byName.keys()];
  const check = bodyChecker<Static<ReturnType<typeof bodySchema>>>(bodySchema(datasets));
  const allow = new AllowList(ctx.config.webhooks.allowHosts);
  const hidden = { hide: true, querystring: Type.Object({}, { additionalProperties: false }) };
  const getOptions = { ...GET_ONLY, schema: hidden, onRequest: authHook(ctx, queryCheck(hidden.querystring)) };
  const free = (reply: FastifyReply) => reply.header('x-credit-cost', 0);
  const own = async (caller: Caller, id: string): Promise<Endpoint> => {
    const accountId = accountOf(caller);
    const endpoint = UUID.test(id) ? await findEndpoint(ctx.db.kysely, accountId, id) : undefined;
    if (endpoint === undefined) throw notFound();
    return endpoint;
  };
  return async (app) => {
    jsonBodies(app);
    app.post('/api/v1/webhooks', postRoute(ctx, { hide: true }), async (request, reply) => {
      const accountId = accountOf(callerOf(request));
      const body = check(request.body);
      const problem = urlProblem(body.url, ctx.config.webhooks);
      if (problem !== undefined) throw badRequest(`Invalid field 'url': ${problem}`, 'url');
      try {
        await resolveSafely(hostOf(new URL(body.url)), allow);
      } catch (error) {
        const why = error instanceof ForbiddenAddressError ? error.message : `${hostOf(new URL(body.url))} does not resolve`;
        throw badRequest(`Invalid field 'url': ${why}.`, 'url');
      }
      try {
        const { endpoint, secret } = await createEndpoint(ctx.db.kysely, box, {
          accountId,
          url: body.url,
          eventTypes: body.event_types ?? [...EVENT_TYPES],
          companyIds: body.company_ids?.map((c) => c.toLowerCase()) ?? null,
          datasets: body.datasets ?? null,
          now: ctx.clock(),
        });
        return free(reply)
          .code(201)
          .send({ ...shown(endpoint), secret });
      } catch (error) {
        if (error instanceof TooManyEndpointsError) {
          throw badRequest(`An account holds at most ${ENDPOINTS_PER_ACCOUNT} webhook endpoints: delete one first.`, 'url');
        }
        throw error;
      }
    });
    app.get('/api/v1/webhooks', getOptions, async (request, reply) => {
      const accountId = accountOf(callerOf(request));
      return free(reply).send({ webhooks: (await listEndpoints(ctx.db.kysely, accountId)).map(shown) });
    });
    app.delete<{ Params: { id: string } }>(
      '/api/v1/webhooks/:id',
      { schema: hidden, onRequest: authHook(ctx, queryCheck(hidden.querystring)) },
      async (request, reply) => {
        const endpoint = await own(callerOf(request), request.params.id);
        await deleteEndpoint(ctx.db.kysely, accountOf(callerOf(request)), endpoint.id, ctx.clock());
        return free(reply).code(204).send();
      },
    );
    app.get<{ Params: { id: string } }>('/api/v1/webhooks/:id/deliveries', getOptions, async (request, reply) => {
      const endpoint = await own(callerOf(request), request.params.id);
      const log = await listDeliveries(ctx.db.kysely, endpoint.id, 100);
      return free(reply).send({
        endpoint: shown(endpoint),
        deliveries: log.map((d) => ({
          id: d.id,
          event_id: d.eventId,
          status: d.status,
          tries: d.tries,
          next_try_at: d.nextTryAt,
          created_at: d.createdAt,
          attempts: d.attempts.map((a) => ({
            at: a.at,
            response_status: a.responseStatus,
            latency_ms: a.latencyMs,
            error: a.error,
          })),
        })),
      });
    });
    app.post<{ Params: { id: string; delivery_id: string } }>(
      '/api/v1/webhooks/:id/deliveries/:delivery_id/redeliver',
      postRoute(ctx, { hide: true }),
      async (request, reply) => {
        const endpoint = await own(callerOf(request), request.params.id);
        const deliveryId = /^[1-9][0-9]{0,14}$/.test(request.params.delivery_id) ? Number(request.params.delivery_id) : 0;
        if (deliveryId === 0 || !(await redeliver(ctx.db.kysely, endpoint.id, deliveryId, ctx.clock()))) {
          throw new ApiError('not_found', 'No delivery of this endpoint has this id.');
        }
        return free(reply).code(202).send({ redelivered: deliveryId });
      },
    );
    app.post<{ Params: { id: string } }>('/api/v1/webhooks/:id/test', postRoute(ctx, { hide: true }), async (request, reply) => {
      const endpoint = await own(callerOf(request), request.params.id);
      const sent = await sendSample(ctx.db.kysely, box, endpoint.id, ctx.config.webhooks, allow, ctx.clock());
      return free(reply).send({
        webhook_id: sent.id,
        delivered: sent.status !== null && sent.status >= 200 && sent.status < 300,
        response_status: sent.status,
        latency_ms: sent.latencyMs,
        error:
          sent.error ?? (sent.status !== null && (sent.status < 200 || sent.status >= 300) ? `answered ${sent.status}` : null),
      });
    });
  };
}
