import { type Static, Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../app-context.js';
import type { Catalog, Company } from '../../catalog/catalog.js';
import { ISIN_PATTERN, LEI_PATTERN, TICKER_MAX_LENGTH } from '../../catalog/identifiers.js';
import { MIC_CODES } from '../../catalog/mic-codes.js';
import { REVENUE_FIRST_ACCESS_CREDITS, REVENUE_NO_DATA_CREDITS, REVENUE_REPEAT_CREDITS } from '../../credits/prices.js';
import { mockRevenues } from '../../mock/mock-data.js';
import { resolvePeriod } from '../../revenues/revenue-data.js';
import { authHook, callerOf } from '../auth-hook.js';
import { bill } from '../bill.js';
import { ApiError, badRequest } from '../errors.js';
import { queryGuard } from '../query-guard.js';
import { CreditHeaders, commonErrors, ReportingPeriod, RevenueRecordSchema, textResponse } from '../schemas.js';

export const RevenuesQuery = Type.Object(
  {
    ticker: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: TICKER_MAX_LENGTH,
        description: `a stock ticker of 1 to ${TICKER_MAX_LENGTH} characters.`,
      }),
    ),
    mic_code: Type.Optional(
      Type.Union(
        MIC_CODES.map((m) => Type.Literal(m)),
        { description: 'one of the Market Identifier Codes listed in the API reference.' },
      ),
    ),
    company_id: Type.Optional(
      Type.String({ format: 'uuid', description: 'a UUID. Takes precedence over every other identifier.' }),
    ),
    isin: Type.Optional(
      Type.String({
        minLength: 12,
        maxLength: 12,
        pattern: ISIN_PATTERN,
        description: `exactly 12 characters matching ${ISIN_PATTERN}.`,
      }),
    ),
    lei: Type.Optional(
      Type.String({
        minLength: 20,
        maxLength: 20,
        pattern: LEI_PATTERN,
        description: `exactly 20 characters matching ${LEI_PATTERN}.`,
      }),
    ),
    reporting_period: ReportingPeriod,
  },
  { additionalProperties: false },
);
export type RevenuesQuery = Static<typeof RevenuesQuery>;

const schema = {
  operationId: 'getRevenues',
  summary: 'Total revenue of one company for one reporting period, in USD',
  description:
    'Identifier precedence: company_id > isin > lei > ticker (+ mic_code). Lower identifiers given beside a higher one are validated, then ignored. ' +
    'Costs 25 credits for the first access to a company-period, 1 for a repeat, 1 for a 204; errors are free.',
  tags: ['revenues'],
  security: [{ bearerAuth: [] }],
  querystring: RevenuesQuery,
  response: {
    200: {
      description: 'Every revenue data point of the company-period (first reported and restated).',
      headers: CreditHeaders,
      content: { 'application/json': { schema: Type.Array(RevenueRecordSchema) } },
    },
    204: {
      description: 'The company and period exist but no revenue figure was published for it.',
      headers: CreditHeaders,
      type: 'null',
    },
    ...commonErrors,
    402: textResponse('Insufficient credits; nothing was charged.', CreditHeaders),
    403: { description: 'The account has no subscription to the revenues dataset.', headers: CreditHeaders, type: 'null' },
    404: textResponse('Unknown company, period not covered, or its documents are not processed yet.'),
  },
};

/** The identifier that counts (DESIGN §1.1): company_id > isin > lei > ticker (+ mic_code). */
function lookUp(catalog: Catalog, q: RevenuesQuery): { company: Company | undefined; described: string } {
  if (q.company_id !== undefined)
    return { company: catalog.byId(q.company_id.toLowerCase()), described: `company_id ${q.company_id}` };
  if (q.isin !== undefined) return { company: catalog.byIsin(q.isin), described: `ISIN ${q.isin}` };
  if (q.lei !== undefined) return { company: catalog.byLei(q.lei), described: `LEI ${q.lei}` };
  if (q.ticker !== undefined) {
    const described = q.mic_code === undefined ? `ticker ${q.ticker}` : `ticker ${q.ticker} on ${q.mic_code}`;
    return { company: catalog.byTicker(q.ticker, q.mic_code), described };
  }
  throw badRequest('Missing identifier: give one of company_id, isin, lei or ticker (mic_code alone is not enough).');
}

function identifierOf(q: RevenuesQuery): string {
  const id = q.company_id ?? q.isin ?? q.lei ?? (q.ticker === undefined ? undefined : `${q.ticker}@${q.mic_code ?? ''}`);
  if (id === undefined)
    throw badRequest('Missing identifier: give one of company_id, isin, lei or ticker (mic_code alone is not enough).');
  return id;
}

export function revenuesRoute(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Querystring: RevenuesQuery }>(
      '/api/v1/revenues',
      { schema, onRequest: authHook(ctx), preValidation: queryGuard },
      async (request, reply) => {
        const q = request.query;
        const caller = callerOf(request);
        if (caller.mode === 'test') {
          const records = mockRevenues(identifierOf(q), q.reporting_period, ctx.config.publicUrl);
          await bill(ctx, request, reply, caller, { endpoint: 'revenues', price: 0 });
          return reply.send(records);
        }
        identifierOf(q);
        if (caller.subscription !== 'revenues') {
          throw new ApiError('subscription_required', 'Subscription required.', {
            cost: REVENUE_FIRST_ACCESS_CREDITS,
            balance: await ctx.billing.balanceOf(caller.accountId),
          });
        }
        const { company, described } = lookUp(await ctx.catalog(), q);
        if (company === undefined) throw new ApiError('not_found', `No company matches ${described}.`);
        const outcome = resolvePeriod(await ctx.revenues.get(company.companyId), q.reporting_period);
        if (outcome.kind === 'not-covered') {
          const which = outcome.period === undefined ? `offset ${q.reporting_period}` : `reporting period ${outcome.period}`;
          throw new ApiError('not_found', `No data for ${which} of ${described}: not covered by any processed document.`);
        }
        const subject = { companyId: company.companyId, period: outcome.period };
        await bill(
          ctx,
          request,
          reply,
          caller,
          outcome.kind === 'data'
            ? {
                endpoint: 'revenues',
                price: REVENUE_FIRST_ACCESS_CREDITS,
                purchase: { ...subject, repeatPrice: REVENUE_REPEAT_CREDITS },
              }
            : { endpoint: 'revenues', price: REVENUE_NO_DATA_CREDITS, subject },
        );
        if (outcome.kind === 'no-data') return reply.code(204).send();
        return reply.send(outcome.records);
      },
    );
  };
}
