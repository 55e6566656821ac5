import { type Static, Type } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.js';
import type { Dataset, DatasetPrices } from '../../datasets/dataset.js';
import { API_YEARS, type CompanyData, resolvePeriod } from '../../datasets/period-data.js';
import { serializedRecords } from '../../datasets/serialized-records.js';
import { ApiError } from '../../errors/api-error.js';
import { MOCK_YEAR, mockCompanyId } from '../../mock/mock-data.js';
import { apiRoute } from '../api-route.js';
import { type Caller, callerOf } from '../auth-hook.js';
import { type Bill, billTestMode } from '../bill.js';
import { billAll, periodBill } from '../bill-all.js';
import { coveredPeriod, findCompany, identifierOf, subscriptionRequired } from '../company-lookup.js';
import { CreditHeaders, callPeriod, commonErrors, textResponse } from '../schemas.js';
import { mockOutcome } from '../test-mode.js';
import { identifierProperties } from './dataset-query.js';
import type { DatasetServing } from './dataset-serving.js';

type AccountCaller = Extract<Caller, { mode: 'account' }>;

/** The path of the statement call (design §18.3). */
export const FUNDAMENTALS_PATH = '/api/v1/fundamentals';

/** The ledger's endpoint of an item bought by the statement call: its dataset, by this call (as `revenues/batch`). */
/** The suffix of a statement call's ledger lines (`net-income/fundamentals`), one line per item. */
export const FUNDAMENTALS_VIA = 'fundamentals';
const VIA = FUNDAMENTALS_VIA;

/** The datasets the statement call answers: every line of the statements (design §18.3), in the list's order. */
export function statementItems(datasets: readonly Dataset[]): Dataset[] {
  return datasets.filter((d) => d.statementItem === true);
}

/** The statement call's `reporting_period`: its rule names the calls of the earlier years. */
export const FUNDAMENTALS_PERIOD = callPeriod(
  `each item's own history call (GET /api/v1/{item}/history?from=${API_YEARS.first}, or a batch)`,
);

const FundamentalsQuery = Type.Object(
  { ...identifierProperties, reporting_period: FUNDAMENTALS_PERIOD },
  { additionalProperties: false },
);
type FundamentalsQuery = Static<typeof FundamentalsQuery>;

/** The subscriptions the items need, as the 403 words them. */
export function statementNeeds(datasets: readonly Dataset[]): string {
  const subscriptions = [...new Set(statementItems(datasets).map((d) => d.subscription))];
  return `this call needs the ${subscriptions.join(' or ')} subscription`;
}

/**
 * The OpenAPI document's example answer, made of each item's own example single call (the same
 * company and `reporting_period=-1`), so a new item's example joins it by itself; the example
 * replay (test/openapi.examples.test.ts) checks it against the demo like every other.
 */
export function fundamentalsExample(datasets: readonly Dataset[], examples: Readonly<Record<string, unknown>>): unknown {
  const items = statementItems(datasets).map((d) => {
    const records = examples[d.route.operationId];
    return [d.name, Array.isArray(records) ? records : []] as const;
  });
  const first = items.flatMap(([, records]) => records as { company_id?: unknown; reporting_period?: unknown }[])[0];
  return { company_id: first?.company_id, reporting_period: first?.reporting_period, items: Object.fromEntries(items) };
}

function schemaOf(items: readonly Dataset[]) {
  const names = items.map((d) => d.name).join(', ');
  return {
    operationId: 'getFundamentals',
    summary: 'Every statement item of one company for one reporting period, in one call',
    description:
      `The items (${names}) whose subscription the account holds, each as its own call answers it: its records, or [] when it has no figure. ` +
      'Identifier precedence and reporting_period as the single calls (an offset counts back through the periods any item covers). ' +
      'Billed as a batch of the single calls it contains, all in one transaction: each item with a figure 25 credits the first time, 1 for a repeat, ' +
      '1 for an item of a covered period without a figure; an item whose documents do not cover the period costs nothing. ' +
      'X-Credit-Cost is the sum; 402 with nothing charged when the balance does not cover it.',
    tags: ['fundamentals'],
    security: [{ bearerAuth: [] }],
    querystring: FundamentalsQuery,
    response: {
      200: {
        description: 'The company-period, and one entry per item the account may buy: its records, [] without a figure.',
        headers: CreditHeaders,
        content: {
          'application/json': {
            schema: Type.Object(
              {
                company_id: Type.String({ format: 'uuid', description: 'The company answered (whatever identifier named it).' }),
                reporting_period: Type.Integer({ description: 'The year answered (an offset resolved).' }),
                items: Type.Object(
                  Object.fromEntries(
                    items.map((d) => [
                      d.name,
                      Type.Optional(
                        Type.Array(d.recordSchema, {
                          description: `${d.label}: as ${d.route.path} answers (present when the account holds ${d.subscription}).`,
                        }),
                      ),
                    ]),
                  ),
                  {
                    additionalProperties: false,
                    description:
                      'One entry per statement item the account may buy, by dataset name: its records, [] without a figure.',
                  },
                ),
              },
              { additionalProperties: false },
            ),
          },
        },
      },
      ...commonErrors,
      402: textResponse('Insufficient credits for the items that would be charged; nothing was charged.', CreditHeaders),
      403: { description: 'The account holds none of the subscriptions of the items.', headers: CreditHeaders, type: 'null' },
      404: textResponse('Unknown company, or a period no item covers.'),
    },
  };
}

/** The statement's periods: those any item covers, most recent first (what an offset counts back through). */
function statementData(data: readonly CompanyData<unknown>[]): CompanyData<never> {
  const periods = [...new Set(data.flatMap((d) => d.periods))].sort((a, b) => b - a);
  // Each period as covered without records: the items' own data says what each one holds.
  return { periods, records: new Map(periods.map((p) => [p, []])) };
}

/**
 * `GET /api/v1/fundamentals` (design §18.3): every statement item the account may buy for one
 * company-period, each resolved and billed as its single call would be, all in one charge
 * (401 -> 400 -> 403 -> 404 -> 200 or 402). Every dataset marked `statementItem` joins it by itself.
 */
export function fundamentalsRoute(ctx: AppContext, servings: readonly DatasetServing[]): FastifyPluginAsync {
  const all = servings.filter((s) => s.dataset.statementItem === true);
  const datasets = all.map((s) => s.dataset);
  const firstAccess = datasets[0]?.prices.firstAccess ?? 0;
  // The test token holds every subscription: its 402 says what all the items would cost.
  const mockPrices: DatasetPrices = {
    firstAccess: datasets.reduce((sum, d) => sum + d.prices.firstAccess, 0),
    repeat: datasets.reduce((sum, d) => sum + d.prices.repeat, 0),
    noData: datasets.reduce((sum, d) => sum + d.prices.noData, 0),
  };
  const send = (reply: FastifyReply, companyId: string, period: number, items: readonly string[]) =>
    reply
      .type('application/json; charset=utf-8')
      .send(`{"company_id":${JSON.stringify(companyId)},"reporting_period":${period},"items":{${items.join(',')}}}`);

  const live = async (q: FundamentalsQuery, request: FastifyRequest, reply: FastifyReply, caller: AccountCaller) => {
    identifierOf(q);
    const mine = all.filter((s) => caller.subscriptions.has(s.dataset.subscription));
    if (mine.length === 0) {
      throw subscriptionRequired(
        datasets[0]?.subscription ?? VIA,
        { cost: firstAccess, balance: await ctx.billing.balanceOf(caller.accountId) },
        statementNeeds(datasets),
      );
    }
    const { company, described } = findCompany(await ctx.catalog(), q);
    const loaded = await Promise.all(
      mine.map(async ({ dataset, companyData }) => ({ dataset, data: await companyData(company.companyId) })),
    );
    const { period } = coveredPeriod(statementData(loaded.map((l) => l.data)), q.reporting_period, described);
    const parts: Bill[] = [];
    const items = loaded.map(({ dataset, data }) => {
      const outcome = resolvePeriod(data, period);
      // An item whose documents do not cover the period is free, as a 404 would be.
      if (outcome.kind !== 'not-covered') {
        parts.push(periodBill(`${dataset.name}/${VIA}`, dataset, company.companyId, period, outcome.kind === 'data'));
      }
      return `${JSON.stringify(dataset.name)}:${outcome.kind === 'data' ? serializedRecords(outcome.records) : '[]'}`;
    });
    await billAll(ctx, request, reply, caller, parts);
    return send(reply, company.companyId, period, items);
  };

  return async (app) => {
    // A server without statement items has no statement call.
    if (all.length === 0) return;
    app.get<{ Querystring: FundamentalsQuery }>(FUNDAMENTALS_PATH, apiRoute(ctx, schemaOf(datasets)), (request, reply) => {
      const q = request.query;
      const caller = callerOf(request);
      if (caller.mode !== 'test') return live(q, request, reply, caller);
      // The test token answers each item from its mock, as each single call does; the magic tickers as live would.
      const outcome = mockOutcome(q.ticker, datasets[0]?.subscription ?? VIA, mockPrices);
      if (outcome instanceof ApiError) throw outcome;
      const identifier = identifierOf(q);
      const period = q.reporting_period < 0 ? MOCK_YEAR + 1 + q.reporting_period : q.reporting_period;
      const items = all.map(
        (s) => `${JSON.stringify(s.dataset.name)}:${outcome === 'no-data' ? '[]' : s.mockBody(identifier, q.reporting_period)}`,
      );
      billTestMode(reply);
      // Sent here and nothing returned: a sync handler's returned reply would be sent twice.
      send(reply, mockCompanyId(identifier), period, items);
      return undefined;
    });
  };
}
