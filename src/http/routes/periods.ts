import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../app-context.js';
import type { Dataset } from '../../datasets/dataset.js';
import { API_YEARS, type CompanyData } from '../../datasets/period-data.js';
import { ApiError } from '../../errors/api-error.js';
import { mockPeriods } from '../../mock/mock-data.js';
import { apiRoute } from '../api-route.js';
import { callerOf } from '../auth-hook.js';
import { findCompany, identifierOf, subscriptionRequired } from '../company-lookup.js';
import { freeCall } from '../free-call.js';
import { AvailablePeriodsSchema, CreditHeaders, commonErrors, textResponse } from '../schemas.js';
import { mockOutcome } from '../test-mode.js';
import { IdentifierQuery } from './dataset-query.js';

function schemaOf(dataset: Dataset) {
  return {
    operationId: dataset.route.periodsOperationId,
    summary: `The reporting periods a company has ${dataset.label} data for`,
    description:
      `The identifier parameters of ${dataset.route.path}, without reporting_period. Free (X-Credit-Cost: 0): learn what exists before paying for it. ` +
      'The periods are those covered by processed documents, most recent first, so the N-th is what reporting_period=-N returns. ' +
      `Every listed period is answered: from ${API_YEARS.singleCallFirst} to ${API_YEARS.last} by ${dataset.route.path}?reporting_period=YEAR; ` +
      `every one, those before ${API_YEARS.singleCallFirst} included (from ${API_YEARS.first}), by ${dataset.route.path}/history?from=YEAR and by the batch call.`,
    tags: [dataset.route.tag],
    security: [{ bearerAuth: [] }],
    querystring: IdentifierQuery,
    response: {
      200: {
        description: 'The available periods, most recent first (possibly none).',
        headers: CreditHeaders,
        content: { 'application/json': { schema: AvailablePeriodsSchema } },
      },
      ...commonErrors,
      403: { description: dataset.route.forbidden, headers: CreditHeaders, type: 'null' },
      404: textResponse('No company matches the identifier.'),
    },
  };
}

/**
 * `GET {dataset path}/periods` (design §11.2): the checks of the dataset's endpoint in the same
 * order (401, 400, 403, 404), and never a charge. It reads the dataset route's own cache, so the
 * periods it lists are exactly those `-N` resolves over.
 */
export function periodsRoute(
  ctx: AppContext,
  dataset: Dataset,
  companyData: (companyId: string) => Promise<CompanyData<unknown>>,
): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Querystring: IdentifierQuery }>(
      `${dataset.route.path}/periods`,
      apiRoute(ctx, schemaOf(dataset)),
      async (request, reply) => {
        const q = request.query;
        const caller = callerOf(request);
        const identifier = identifierOf(q);
        if (caller.mode === 'test') {
          const outcome = mockOutcome(q.ticker, dataset.subscription, 'free');
          if (outcome instanceof ApiError) throw outcome;
          await freeCall(ctx, reply, caller);
          return reply.send(mockPeriods(identifier));
        }
        if (!caller.subscriptions.has(dataset.subscription)) {
          throw subscriptionRequired(dataset.subscription, {
            cost: 0,
            balance: await ctx.billing.balanceOf(caller.accountId),
          });
        }
        const { company } = findCompany(await ctx.catalog(), q);
        const data = await companyData(company.companyId);
        await freeCall(ctx, reply, caller);
        return reply.send({ company_id: company.companyId, reporting_periods: [...data.periods] });
      },
    );
  };
}
