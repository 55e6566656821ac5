import { type Static, Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { listEvents } from '../../events/event-feed.js';
import { datasetTables, eventRecord } from '../../events/event-record.js';
import { EVENT_TYPES, type EventType } from '../../events/event-types.js';
import { apiRoute } from '../api-route.js';
import { callerOf } from '../auth-hook.js';
import { freeCall } from '../free-call.js';
import { CreditHeaders, commonErrors } from '../schemas.js';

/** The most events one page holds. */
export const EVENTS_PAGE_MAX = 1000;
const EVENTS_PAGE_DEFAULT = 100;

/** An event as the API and webhooks show it (design §20.3): what changed and where, never a value. */
export const EventSchema = Type.Object(
  {
    id: Type.Integer({ minimum: 1, description: 'Increasing: the order events were written in; the cursor of `after`.' }),
    type: Type.String({ enum: [...EVENT_TYPES] }),
    occurred_at: Type.String({ format: 'date-time', description: 'When the change was written.' }),
    company_id: Type.Union([Type.String(), Type.Null()]),
    dataset: Type.Union([Type.String(), Type.Null()], { description: 'The dataset of a figure event; null for a filing.' }),
    reporting_period: Type.Union([Type.Integer(), Type.Null()]),
    document_id: Type.Union([Type.String(), Type.Null()], { description: 'The document the change came from.' }),
    point_id: Type.Union([Type.String(), Type.Null()], {
      description: 'The figure’s trace id (`/trace/{id}`, whose values show once bought); null for a filing.',
    }),
    merged_company_id: Type.Union([Type.String(), Type.Null()], {
      description:
        'A `company.merged` event’s former company_id, merged into `company_id` and resolving to it from now on; null for other events.',
    }),
  },
  { additionalProperties: false, title: 'Event' },
);

function querySchema(datasets: readonly string[]) {
  return Type.Object(
    {
      after: Type.Optional(
        Type.Integer({ minimum: 0, maximum: 999_999_999, description: 'an integer from 0: the id of the last event seen.' }),
      ),
      limit: Type.Optional(
        Type.Integer({ minimum: 1, maximum: EVENTS_PAGE_MAX, description: `an integer from 1 to ${EVENTS_PAGE_MAX}.` }),
      ),
      type: Type.Optional(Type.String({ enum: [...EVENT_TYPES], description: `one of ${EVENT_TYPES.join(', ')}.` })),
      company_id: Type.Optional(Type.String({ format: 'uuid', description: 'a company_id (UUID).' })),
      dataset: Type.Optional(Type.String({ enum: [...datasets], description: `one of ${datasets.join(', ')}.` })),
    },
    { additionalProperties: false },
  );
}

/**
 * `GET /api/v1/events` (design §20.3): the events after a cursor, oldest first, filtered; free
 * (`X-Credit-Cost: 0`), a key needed. The test token sees an empty feed: test mode never sees
 * live events.
 */
export function eventsRoute(ctx: AppContext): FastifyPluginAsync {
  const { byName, byTable } = datasetTables(ctx.datasets);
  const querystring = querySchema([...byName.keys()]);
  const schema = {
    operationId: 'listEvents',
    summary: 'Changes to watch: figures published or restated, filings ingested',
    description:
      'Free (X-Credit-Cost: 0). Events in the order they were written, after the cursor `after`, at most `limit`; ' +
      'an event names what changed (company, dataset, period, document, trace id), never a value. ' +
      `Kept ${ctx.config.eventRetentionDays} days. The next page: \`after\` = the last id (also in \`Link: rel="next"\`).`,
    tags: ['events'],
    security: [{ bearerAuth: [] }],
    querystring,
    response: {
      200: {
        description: 'A page of events, oldest first; a full page also carries `Link: <next page>; rel="next"`.',
        // `Link: <…>; rel="next"` comes only with a full page: declared headers are the ones always sent.
        headers: CreditHeaders,
        content: {
          'application/json': {
            schema: Type.Object(
              {
                events: Type.Array(EventSchema),
                next_after: Type.Union([Type.Integer(), Type.Null()], {
                  description: 'The `after` of the next page; null when this page is not full.',
                }),
              },
              { additionalProperties: false, title: 'EventPage' },
            ),
          },
        },
      },
      ...commonErrors,
    },
  };
  return async (app) => {
    app.get('/api/v1/events', apiRoute(ctx, schema), async (request, reply) => {
      const caller = callerOf(request);
      const q = request.query as Static<typeof querystring>;
      await freeCall(ctx, reply, caller);
      const limit = q.limit ?? EVENTS_PAGE_DEFAULT;
      const table = q.dataset === undefined ? undefined : byName.get(q.dataset);
      const rows =
        caller.mode === 'test'
          ? []
          : await listEvents(ctx.db.kysely, {
              after: q.after ?? 0,
              limit,
              ...(q.type === undefined ? {} : { type: q.type as EventType }),
              ...(q.company_id === undefined ? {} : { companyId: q.company_id.toLowerCase() }),
              ...(table === undefined ? {} : { pointsTables: [table] }),
            });
      const last = rows.at(-1);
      const nextAfter = rows.length === limit && last !== undefined ? last.id : null;
      if (nextAfter !== null) {
        const next = new URLSearchParams();
        for (const [k, v] of Object.entries(q)) if (v !== undefined && k !== 'after') next.set(k, String(v));
        next.set('after', String(nextAfter));
        reply.header('link', `<${ctx.config.publicUrl}/api/v1/events?${next.toString()}>; rel="next"`);
      }
      return reply.send({ events: rows.map((e) => eventRecord(e, byTable)), next_after: nextAfter });
    });
  };
}
