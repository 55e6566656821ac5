import { type Static, Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { ISIN_PATTERN, LEI_PATTERN, TICKER_MAX_LENGTH } from '../../catalog/identifiers.js';
import type { Dataset } from '../../datasets/dataset.js';
import { type CompanyData, CompanyDataCache, resolvePeriod } from '../../datasets/period-data.js';
import { serializedRecords } from '../../datasets/serialized-records.js';
import { apiRoute } from '../api-route.js';
import { callerOf } from '../auth-hook.js';
import { bill, billTestMode } from '../bill.js';
import { findCompany, identifierOf, periodNotCovered, subscriptionRequired } from '../company-lookup.js';
import { ApiError } from '../errors.js';
import { CreditHeaders, commonErrors, micCodeSchema, ReportingPeriod, textResponse } from '../schemas.js';
import { MockBodies, mockOutcome } from '../test-mode.js';
import { periodsRoute } from './periods.js';

/** The query of every dataset's endpoint: identifiers and `reporting_period` as `/revenues` has them (§1). */
export const RevenuesQuery = Type.Object(
  {
    ticker: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: TICKER_MAX_LENGTH,
        description: `a stock ticker of 1 to ${TICKER_MAX_LENGTH} characters.`,
      }),
    ),
    mic_code: Type.Optional(micCodeSchema('one of the Market Identifier Codes listed in the API reference.')),
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

function schemaOf(dataset: Dataset) {
  const r = dataset.route;
  return {
    operationId: r.operationId,
    summary: r.summary,
    description: r.description,
    tags: [r.tag],
    security: [{ bearerAuth: [] }],
    querystring: RevenuesQuery,
    response: {
      200: {
        description: r.ok,
        headers: CreditHeaders,
        content: { 'application/json': { schema: Type.Array(dataset.recordSchema) } },
      },
      204: {
        description: r.noData,
        headers: CreditHeaders,
        type: 'null',
      },
      ...commonErrors,
      402: textResponse('Insufficient credits; nothing was charged.', CreditHeaders),
      403: { description: r.forbidden, headers: CreditHeaders, type: 'null' },
      404: textResponse('Unknown company, period not covered, or its documents are not processed yet.'),
    },
  };
}

/** The identifier parameters alone, as the periods endpoints take them. */
export const IdentifierQuery = Type.Omit(RevenuesQuery, ['reporting_period'], { additionalProperties: false });
export type IdentifierQuery = Static<typeof IdentifierQuery>;

/**
 * The endpoint of one dataset: every dataset is checked, resolved and billed the same way
 * (401 -> 400 -> 403 -> 404 -> 200/204 or 402), its declaration saying only what differs.
 */
export function datasetRoute(ctx: AppContext, dataset: Dataset): FastifyPluginAsync {
  const cache = new CompanyDataCache<CompanyData<unknown>>((companyId) =>
    dataset.load(ctx.db.kysely, companyId, ctx.config.publicUrl),
  );
  ctx.onDataChange(() => cache.clear());
  const mocks = new MockBodies(
    (identifier, period) => dataset.mock(identifier, period, ctx.config.publicUrl),
    () => ctx.config.publicUrl,
  );
  const { prices } = dataset;
  return async (app) => {
    app.get<{ Querystring: RevenuesQuery }>(dataset.route.path, apiRoute(ctx, schemaOf(dataset)), async (request, reply) => {
      const q = request.query;
      const caller = callerOf(request);
      if (caller.mode === 'test') {
        const outcome = mockOutcome(q.ticker, dataset.subscription, prices);
        if (outcome instanceof ApiError) throw outcome;
        billTestMode(reply);
        if (outcome === 'no-data') return reply.code(204).send();
        return reply.type('application/json; charset=utf-8').send(mocks.body(identifierOf(q), q.reporting_period));
      }
      identifierOf(q);
      if (!caller.subscriptions.has(dataset.subscription)) {
        throw subscriptionRequired(dataset.subscription, {
          cost: prices.firstAccess,
          balance: await ctx.billing.balanceOf(caller.accountId),
        });
      }
      const { company, described } = findCompany(await ctx.catalog(), q);
      const data = await cache.get(company.companyId);
      const outcome = resolvePeriod(data, q.reporting_period);
      if (outcome.kind === 'not-covered') {
        const which = outcome.period === undefined ? `offset ${q.reporting_period}` : `reporting period ${outcome.period}`;
        throw periodNotCovered(which, described, data.periods);
      }
      const subject = { companyId: company.companyId, period: outcome.period };
      await bill(
        ctx,
        request,
        reply,
        caller,
        outcome.kind === 'data'
          ? {
              endpoint: dataset.name,
              price: prices.firstAccess,
              purchase: {
                companyId: subject.companyId,
                period: subject.period,
                dataset: dataset.name,
                repeatPrice: prices.repeat,
              },
            }
          : { endpoint: dataset.name, price: prices.noData, subject },
      );
      if (outcome.kind === 'no-data') return reply.code(204).send();
      return reply.type('application/json; charset=utf-8').send(serializedRecords(outcome.records));
    });
    await app.register(periodsRoute(ctx, dataset, (companyId) => cache.get(companyId)));
  };
}
