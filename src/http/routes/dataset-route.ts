import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.js';
import type { Dataset } from '../../datasets/dataset.js';
import { datasetBill } from '../../datasets/dataset-charge.js';
import { type CompanyData, CompanyDataCache, resolvePeriod } from '../../datasets/period-data.js';
import { serializedRecords } from '../../datasets/serialized-records.js';
import { ApiError } from '../../errors/api-error.js';
import { apiRoute } from '../api-route.js';
import { type Caller, callerOf } from '../auth-hook.js';
import { bill, billTestMode } from '../bill.js';
import { findCompany, identifierOf, periodNotCovered, subscriptionRequired } from '../company-lookup.js';
import { CreditHeaders, commonErrors, textResponse } from '../schemas.js';
import { MockBodies, mockOutcome } from '../test-mode.js';
import { batchRoute } from './batch.js';
import { type DatasetQuery, datasetQuery } from './dataset-query.js';
import { historyRoute } from './history.js';
import { periodsRoute } from './periods.js';

type AccountCaller = Extract<Caller, { mode: 'account' }>;

function schemaOf(dataset: Dataset) {
  const r = dataset.route;
  return {
    operationId: r.operationId,
    summary: r.summary,
    description: r.description,
    tags: [r.tag],
    security: [{ bearerAuth: [] }],
    querystring: datasetQuery(r.path),
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
  /** A live key's call: charged, so it waits on the catalog, the company's data and the charge. */
  const live = async (q: DatasetQuery, request: FastifyRequest, reply: FastifyReply, caller: AccountCaller) => {
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
    await bill(ctx, request, reply, caller, datasetBill(dataset, company.companyId, outcome));
    if (outcome.kind === 'no-data') return reply.code(204).send();
    return reply.type('application/json; charset=utf-8').send(serializedRecords(outcome.records));
  };
  return async (app) => {
    // Not an async function: a test-mode call (mock data, nothing to wait for) is answered without
    // a promise; a live call returns its promise. A thrown refusal reaches the one error handler either way.
    app.get<{ Querystring: DatasetQuery }>(dataset.route.path, apiRoute(ctx, schemaOf(dataset)), (request, reply) => {
      const q = request.query;
      const caller = callerOf(request);
      if (caller.mode !== 'test') return live(q, request, reply, caller);
      const outcome = mockOutcome(q.ticker, dataset.subscription, prices);
      if (outcome instanceof ApiError) throw outcome;
      billTestMode(reply);
      // Sent here and nothing returned: a sync handler's returned reply would be sent twice.
      if (outcome === 'no-data') reply.code(204).send();
      else reply.type('application/json; charset=utf-8').send(mocks.body(identifierOf(q), q.reporting_period));
      return undefined;
    });
    const companyData = (companyId: string) => cache.get(companyId);
    const mock = (identifier: string, period: number) => mocks.body(identifier, period);
    await app.register(periodsRoute(ctx, dataset, companyData));
    await app.register(historyRoute(ctx, dataset, companyData, mock));
    await app.register(batchRoute(ctx, dataset, companyData, mock));
  };
}
