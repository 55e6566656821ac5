import { type Static, Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../app-context.js';
import type { Dataset } from '../../datasets/dataset.js';
import { API_YEARS, type CompanyData } from '../../datasets/period-data.js';
import { serializedRecords } from '../../datasets/serialized-records.js';
import { ApiError, badRequest } from '../../errors/api-error.js';
import { mockPeriods } from '../../mock/mock-data.js';
import { apiRoute } from '../api-route.js';
import { callerOf } from '../auth-hook.js';
import { billAll, periodBill } from '../bill-all.js';
import { findCompany, identifierOf, periodNotCovered, subscriptionRequired } from '../company-lookup.js';
import { CreditHeaders, commonErrors, textResponse } from '../schemas.js';
import { mockOutcome } from '../test-mode.js';
import { identifierProperties } from './dataset-query.js';

/** The earliest year a history takes: every year the data holds and the API answers (design §11.2). */
export const FIRST_YEAR = API_YEARS.first;
export const LAST_YEAR = API_YEARS.last;
/**
 * A range without from starts at the single call's first year, as it always has: a client that
 * sends only to is not billed for earlier years it did not ask for.
 */
const DEFAULT_FROM = API_YEARS.singleCallFirst;
/** A history reaches back as far as `reporting_period` does (-6). */
export const MAX_LAST = 6;

export const HistoryQuery = Type.Object(
  {
    ...identifierProperties,
    from: Type.Optional(
      Type.Integer({
        minimum: FIRST_YEAR,
        maximum: LAST_YEAR,
        description: `a year from ${FIRST_YEAR} to ${LAST_YEAR}: the earliest period of the range (default ${DEFAULT_FROM}; the years before ${API_YEARS.singleCallFirst}, which the single call does not take, are answered here and by batch).`,
      }),
    ),
    to: Type.Optional(
      Type.Integer({
        minimum: FIRST_YEAR,
        maximum: LAST_YEAR,
        description: `a year from ${FIRST_YEAR} to ${LAST_YEAR}: the latest period of the range (default ${LAST_YEAR}).`,
      }),
    ),
    last: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_LAST,
        description: `an integer from 1 to ${MAX_LAST}: the N most recent available periods, instead of from and to.`,
      }),
    ),
  },
  { additionalProperties: false },
);
export type HistoryQuery = Static<typeof HistoryQuery>;

/** One period of a history: its records, none for a covered period without a figure (a 204 alone). */
function historySchema(dataset: Dataset) {
  return Type.Object(
    {
      company_id: Type.String({ format: 'uuid' }),
      periods: Type.Array(
        Type.Object(
          {
            reporting_period: Type.Integer(),
            records: Type.Array(dataset.recordSchema, {
              description: 'What the single call answers for the period; empty where it answers 204 (billed as a 204).',
            }),
          },
          { additionalProperties: false },
        ),
        { description: 'Every available period in the range, most recent first.' },
      ),
    },
    { additionalProperties: false },
  );
}

function schemaOf(dataset: Dataset) {
  const r = dataset.route;
  return {
    operationId: `${r.operationId}History`,
    summary: `${dataset.label}: every available period of a company in one call`,
    description:
      `The identifiers of ${r.path}, and a range: from and/or to (years from ${FIRST_YEAR}), or last (the N most recent available periods). ` +
      `The call for every period the periods endpoint lists, those before ${API_YEARS.singleCallFirst} included (the single call takes ${API_YEARS.singleCallFirst} to ${LAST_YEAR}). ` +
      'Every available period in the range, each billed as the single call would be (25 first access, 1 repeat, 1 a period without figures), ' +
      'the total in X-Credit-Cost, all in one transaction: 402 with nothing charged when the balance does not cover the whole call. ' +
      '404 when no available period falls in the range.',
    tags: [r.tag],
    security: [{ bearerAuth: [] }],
    querystring: HistoryQuery,
    response: {
      200: {
        description: 'The company and its available periods in the range, most recent first.',
        headers: CreditHeaders,
        content: { 'application/json': { schema: historySchema(dataset) } },
      },
      ...commonErrors,
      402: textResponse('Insufficient credits for the whole range; nothing was charged.', CreditHeaders),
      403: { description: r.forbidden, headers: CreditHeaders, type: 'null' },
      404: textResponse('Unknown company, or no available period in the range.'),
    },
  };
}

/** The range a history asks for, or the 400 naming the parameter that breaks it. */
function rangeOf(q: HistoryQuery): { last: number } | { from: number; to: number } {
  if (q.last !== undefined) {
    if (q.from !== undefined || q.to !== undefined)
      throw badRequest("Invalid parameter 'last': give either last or from/to, not both.", 'last');
    return { last: q.last };
  }
  if (q.from === undefined && q.to === undefined) {
    throw badRequest("Missing parameter 'from': give from and/or to (years), or last (a number of periods).", 'from');
  }
  const from = q.from ?? DEFAULT_FROM;
  const to = q.to ?? LAST_YEAR;
  if (q.from === undefined && to < DEFAULT_FROM) {
    throw badRequest(
      `Missing parameter 'from': without it a range starts at ${DEFAULT_FROM}, after to; give from (a year from ${FIRST_YEAR}).`,
      'from',
    );
  }
  if (from > to) throw badRequest("Invalid parameter 'from': it must not be after to.", 'from');
  return { from, to };
}

/** The available periods (most recent first) a range selects. */
export function selectPeriods(periods: readonly number[], range: ReturnType<typeof rangeOf>): number[] {
  if ('last' in range) return periods.slice(0, range.last);
  return periods.filter((p) => p >= range.from && p <= range.to);
}

function describeRange(range: ReturnType<typeof rangeOf>): string {
  return 'last' in range ? `the last ${range.last} periods` : `the periods ${range.from} to ${range.to}`;
}

/**
 * `GET {dataset path}/history`: the dataset's answer for every available period of one company in
 * a range, billed per company-period as the single calls would be, all or nothing (401 -> 400 ->
 * 403 -> 404 -> 200 or 402, as the single call).
 */
export function historyRoute(
  ctx: AppContext,
  dataset: Dataset,
  companyData: (companyId: string) => Promise<CompanyData<unknown>>,
  mock: (identifier: string, period: number) => string,
): FastifyPluginAsync {
  const endpoint = `${dataset.name}/history`;
  return async (app) => {
    app.get<{ Querystring: HistoryQuery }>(
      `${dataset.route.path}/history`,
      apiRoute(ctx, schemaOf(dataset)),
      async (request, reply) => {
        const q = request.query;
        const caller = callerOf(request);
        const identifier = identifierOf(q);
        const range = rangeOf(q);
        if (caller.mode === 'test') {
          const outcome = mockOutcome(q.ticker, dataset.subscription, dataset.prices);
          const mocked = mockPeriods(identifier);
          const periods = selectPeriods(mocked.reporting_periods, range);
          if (outcome instanceof ApiError && outcome.kind === 'insufficient_credits') {
            const cost = dataset.prices.firstAccess * periods.length;
            throw new ApiError('insufficient_credits', `Insufficient credits: this call costs ${cost}, the balance is 0.`, {
              cost,
              balance: 0,
            });
          }
          if (outcome instanceof ApiError) throw outcome;
          if (periods.length === 0)
            throw periodNotCovered(describeRange(range), 'the given identifier', mocked.reporting_periods);
          await billAll(ctx, request, reply, caller, []);
          const body = periods.map(
            (p) => `{"reporting_period":${p},"records":${outcome === 'no-data' ? '[]' : mock(identifier, p)}}`,
          );
          return reply
            .type('application/json; charset=utf-8')
            .send(`{"company_id":${JSON.stringify(mocked.company_id)},"periods":[${body.join(',')}]}`);
        }
        if (!caller.subscriptions.has(dataset.subscription)) {
          throw subscriptionRequired(dataset.subscription, {
            cost: dataset.prices.firstAccess,
            balance: await ctx.billing.balanceOf(caller.accountId),
          });
        }
        const { company, described } = findCompany(await ctx.catalog(), q);
        const data = await companyData(company.companyId);
        const periods = selectPeriods(data.periods, range);
        if (periods.length === 0) throw periodNotCovered(describeRange(range), described, data.periods);
        const records = periods.map((p) => data.records.get(p) ?? []);
        await billAll(
          ctx,
          request,
          reply,
          caller,
          periods.map((p, i) => periodBill(endpoint, dataset, company.companyId, p, (records[i]?.length ?? 0) > 0)),
        );
        const body = periods.map((p, i) => `{"reporting_period":${p},"records":${serializedRecords(records[i] ?? [])}}`);
        return reply
          .type('application/json; charset=utf-8')
          .send(`{"company_id":${JSON.stringify(company.companyId)},"periods":[${body.join(',')}]}`);
      },
    );
  };
}
