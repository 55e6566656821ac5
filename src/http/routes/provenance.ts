import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { UUID_TEXT } from '../../catalog/identifiers.js';
import type { Dataset } from '../../datasets/dataset.js';
import { loadProvenance } from '../../datasets/trace-lookup.js';
import { ApiError } from '../../errors/api-error.js';
import { isMockTraceId, MOCK_TRACE_ID, mockProvenance } from '../../mock/mock-provenance.js';
import { apiRoute } from '../api-route.js';
import { callerOf } from '../auth-hook.js';
import { freeCall } from '../free-call.js';
import { CreditHeaders, commonErrors, textResponse } from '../schemas.js';

/** What a mock record's id answers: that it is mock data (the test token's records point to these). */
const MockProvenanceSchema = Type.Object(
  {
    data_point_id: Type.String({ description: 'The mock id, as asked.' }),
    mock: Type.Literal(true),
    detail: Type.String({ description: 'That the figure is mock data, from no document.' }),
    traceability_source_url: Type.String({ format: 'uri' }),
  },
  { additionalProperties: false, title: 'MockProvenance' },
);

const schemaOf = (datasets: readonly Dataset[]) => ({
  operationId: 'getProvenance',
  summary: 'Where a data point comes from: its document, source, date and conversion',
  description:
    'The id is the last segment of a traceability_source_url, of any dataset. Free (X-Credit-Cost: 0). Anyone with a key sees the source; ' +
    'the figures (for revenues: USD value, original value, FX rate and its source; for emissions: the value and the unit reported; ' +
    'for an intensity: its value, emissions and revenue) only an account that bought the company-period in that data point’s dataset.',
  tags: ['revenues'],
  security: [{ bearerAuth: [] }],
  params: Type.Object({
    id: Type.String({
      pattern: `^(?:${UUID_TEXT}(~${UUID_TEXT})?|${MOCK_TRACE_ID})$`,
      description:
        'a data point id: a UUID, or for an intensity two UUIDs joined by "~"; or the id of a mock record (mock-…), answered as mock data.',
    }),
  }),
  querystring: Type.Object({}, { additionalProperties: false }),
  response: {
    200: {
      description: 'The provenance of the data point; values is null unless the account bought its company-period.',
      headers: CreditHeaders,
      content: {
        'application/json': {
          schema: Type.Union([
            ...datasets.flatMap((d) => (d.provenanceSchema === undefined ? [] : [d.provenanceSchema])),
            MockProvenanceSchema,
          ]),
        },
      },
    },
    ...commonErrors,
    404: textResponse('No data point has this id.'),
  },
});

/**
 * `GET /api/v1/trace/{id}` (design §11.3): the traceability page's facts as JSON, for a key. Each
 * dataset answers for its own points; values need a purchase in that dataset.
 */
export function provenanceRoute(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Params: { id: string } }>('/api/v1/trace/:id', apiRoute(ctx, schemaOf(ctx.datasets)), async (request, reply) => {
      const caller = callerOf(request);
      if (isMockTraceId(request.params.id)) {
        // A mock record's link, followed by a program: the same answer as its page, to any caller.
        await freeCall(ctx, reply, caller);
        return reply.send(mockProvenance(request.params.id, ctx.config.publicUrl));
      }
      const accountId = caller.mode === 'account' ? caller.accountId : undefined;
      const provenance = await loadProvenance(ctx.datasets, ctx.db.kysely, request.params.id, accountId, ctx.config.publicUrl);
      if (provenance === undefined) throw new ApiError('not_found', 'No data point has this id.');
      await freeCall(ctx, reply, caller);
      return reply.send(provenance);
    });
  };
}
