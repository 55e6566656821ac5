import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { mockPeriods } from '../../mock/mock-data.js';
import { authHook, callerOf } from '../auth-hook.js';
import { ApiError } from '../errors.js';
import { freeCall } from '../free-call.js';
import { GET_ONLY } from '../method-discipline.js';
import { queryGuard } from '../query-guard.js';
import { CreditHeaders, commonErrors, RevenuePeriodsSchema, textResponse } from '../schemas.js';
import { type IdentifierQuery, identifierOf, lookUp, RevenuesQuery } from './revenues.js';

const PeriodsQuery = Type.Omit(RevenuesQuery, ['reporting_period'], { additionalProperties: false });

const schema = {
  operationId: 'getRevenuePeriods',
  summary: 'The reporting periods a company has revenue data for',
  description:
    'The identifier parameters of /revenues, without reporting_period. Free (X-Credit-Cost: 0): learn what exists before paying for it. ' +
    'The periods are those covered by processed documents, most recent first, so the N-th is what reporting_period=-N returns.',
  tags: ['revenues'],
  security: [{ bearerAuth: [] }],
  querystring: PeriodsQuery,
  response: {
    200: {
      description: 'The available periods, most recent first (possibly none).',
      headers: CreditHeaders,
      content: { 'application/json': { schema: RevenuePeriodsSchema } },
    },
    ...commonErrors,
    403: { description: 'The account has no subscription to the revenues dataset.', headers: CreditHeaders, type: 'null' },
    404: textResponse('No company matches the identifier.'),
  },
};

/**
 * `GET /api/v1/revenues/periods` (DESIGN §11.2): the checks of /revenues in the same order
 * (401, 400, 403, 404), and never a charge.
 */
export function periodsRoute(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Querystring: IdentifierQuery }>(
      '/api/v1/revenues/periods',
      { ...GET_ONLY, schema, onRequest: authHook(ctx), preValidation: queryGuard },
      async (request, reply) => {
        const q = request.query;
        const caller = callerOf(request);
        const identifier = identifierOf(q);
        if (caller.mode === 'test') {
          await freeCall(ctx, reply, caller);
          return reply.send(mockPeriods(identifier));
        }
        if (caller.subscription !== 'revenues') {
          throw new ApiError('subscription_required', 'Subscription required.', {
            cost: 0,
            balance: await ctx.billing.balanceOf(caller.accountId),
          });
        }
        const { company, described } = lookUp(await ctx.catalog(), q);
        if (company === undefined) throw new ApiError('not_found', `No company matches ${described}.`);
        const data = await ctx.revenues.get(company.companyId);
        await freeCall(ctx, reply, caller);
        return reply.send({ company_id: company.companyId, reporting_periods: [...data.periods] });
      },
    );
  };
}
