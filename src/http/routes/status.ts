import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { StatusLoader } from '../../freshness/source-status.js';
import { GET_ONLY } from '../method-discipline.js';
import { queryGuard } from '../query-guard.js';
import { textResponse } from '../schemas.js';

const Instant = Type.String({ format: 'date-time' });
const Seconds = (description: string) => Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description });

/** One source's freshness (design §20.2). */
export const SourceStatusSchema = Type.Object(
  {
    source: Type.String({ description: 'Where documents come from: `sec`, `esef`, or `bundle` (imported by the operator).' }),
    last_success_at: Type.Union([Instant, Type.Null()], { description: 'The end of the last poll (sync) that succeeded.' }),
    last_error: Type.Union([Type.Object({ at: Instant, message: Type.String() }, { additionalProperties: false }), Type.Null()], {
      description: 'The last poll that failed, and why.',
    }),
    served_24h: Type.Object(
      {
        documents: Type.Integer({ minimum: 0, description: 'Documents whose figures began to be served in the last 24 hours.' }),
        median_lag_seconds: Seconds('Median seconds from publication (the document’s date, 00:00 UTC) to served.'),
        worst_lag_seconds: Seconds('The longest of those lags.'),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false, title: 'SourceStatus' },
);

const querystring = Type.Object({}, { additionalProperties: false });

/**
 * `GET /api/v1/status` (design §20.2): free and without a key, each source's last polls and the lag
 * of what it served in the last 24 hours; read at most every few seconds per instance.
 */
export function statusRoute(status: StatusLoader): FastifyPluginAsync {
  const schema = {
    operationId: 'getStatus',
    summary: 'How fresh the data is: each source’s last polls, and how late its documents were served',
    description:
      'Free, no key. Per source: the last successful poll, the last error, and the documents served in the last 24 hours with ' +
      'their median and worst lag from publication to served. Refreshed every few seconds.',
    tags: ['status'],
    security: [],
    querystring,
    response: {
      200: {
        description: 'Each source, in name order.',
        content: {
          'application/json': {
            schema: Type.Object(
              {
                generated_at: Type.String({
                  format: 'date-time',
                  description: 'When this status was read (it is read again every few seconds).',
                }),
                sources: Type.Array(SourceStatusSchema, { description: 'Each source, in name order.' }),
              },
              { additionalProperties: false, title: 'Status' },
            ),
          },
        },
      },
      400: textResponse('Bad request: the body names the parameter and its rule.'),
      500: textResponse('Internal server error; the body carries the request id.'),
    },
  };
  return async (app) => {
    app.get('/api/v1/status', { ...GET_ONLY, schema, preValidation: queryGuard(querystring) }, async (_request, reply) => {
      const { generatedAt, sources } = await status();
      return reply.header('cache-control', 'no-cache').send({ generated_at: generatedAt, sources });
    });
  };
}
