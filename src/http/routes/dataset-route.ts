import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.js';
import type { Dataset } from '../../datasets/dataset.js';
import { datasetBill } from '../../datasets/dataset-charge.js';
import { serializedRecords } from '../../datasets/serialized-records.js';
import { ApiError } from '../../errors/api-error.js';
import { apiRoute } from '../api-route.js';
import { type Caller, callerOf } from '../auth-hook.js';
import { bill, billTestMode } from '../bill.js';
import { coveredPeriod, findCompany, identifierOf, subscriptionRequired } from '../company-lookup.js';
import { CreditHeaders, commonErrors, textResponse } from '../schemas.js';
import { mockOutcome } from '../test-mode.js';
import { batchRoute } from './batch.js';
import { type DatasetQuery, datasetQuery } from './dataset-query.js';
import type { DatasetServing } from './dataset-serving.js';
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
export function datasetRoute(ctx: AppContext, serving: DatasetServing): FastifyPluginAsync {
  const { dataset, companyData, mockBody: mock } = serving;
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
    const data = await companyData(company.companyId);
    const outcome = coveredPeriod(data, q.reporting_period, described);
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
      else reply.type('application/json; charset=utf-8').send(mock(identifierOf(q), q.reporting_period));
      return undefined;
    });
    await app.register(periodsRoute(ctx, dataset, companyData));
    await app.register(historyRoute(ctx, dataset, companyData, mock));
    await app.register(batchRoute(ctx, dataset, companyData, mock));
  };
}
