import { type Static, type TSchema, Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { MIC_CODES } from '../../catalog/mic-codes.js';
import type { Dataset } from '../../datasets/dataset.js';
import { API_YEARS, type CompanyData } from '../../datasets/period-data.js';
import { serializedRecords } from '../../datasets/serialized-records.js';
import { ApiError, badRequest } from '../../errors/api-error.js';
import { callerOf } from '../auth-hook.js';
import type { Bill } from '../bill.js';
import { billAll, periodBill } from '../bill-all.js';
import { coveredPeriod, findCompany, identifierOf, subscriptionRequired } from '../company-lookup.js';
import { bodyChecker, jsonBodies, MAX_JOBS, postRoute } from '../json-body.js';
import { BatchReportingPeriod, CreditHeaders, commonErrors, textResponse } from '../schemas.js';
import { mockOutcome } from '../test-mode.js';
import { identifierProperties } from './dataset-query.js';

const MICS: ReadonlySet<string> = new Set(MIC_CODES);
const MIC_RULE = 'one of the Market Identifier Codes listed in the API reference.';

/** A job's fields: the query of the single call, as JSON (the same rules, no type coercion). */
function jobsBody<M extends TSchema>(mic: M) {
  const { mic_code: _mic, ...identifiers } = identifierProperties;
  return Type.Object(
    {
      jobs: Type.Array(
        Type.Object(
          { ...identifiers, mic_code: Type.Optional(mic), reporting_period: BatchReportingPeriod },
          { additionalProperties: false },
        ),
        {
          minItems: 1,
          maxItems: MAX_JOBS,
          description: `from 1 to ${MAX_JOBS} jobs, each the parameters of the single call (an identifier and reporting_period, a year from ${API_YEARS.first}).`,
        },
      ),
    },
    { additionalProperties: false },
  );
}

/** What the route checks: a MIC is a string here, then one of the list (TypeBox cannot check the documented enum). */
const CheckedBody = jobsBody(Type.String({ description: MIC_RULE }));
type BatchBody = Static<typeof CheckedBody>;
type Job = BatchBody['jobs'][number];

/** One job's answer: its status, and the records (200, 204) or what its single call's refusal says (404). */
function resultSchema(dataset: Dataset) {
  return Type.Object(
    {
      status: Type.Integer({ description: 'What the single call would have answered: 200, 204 or 404.' }),
      data: Type.Optional(Type.Array(dataset.recordSchema, { description: 'The records (200), empty for a 204.' })),
      detail: Type.Optional(Type.String({ description: 'Why the job found nothing (404), as the single call says it.' })),
      available_periods: Type.Optional(
        Type.Array(Type.Integer(), { description: 'A 404 for a period: the periods that exist.' }),
      ),
      did_you_mean: Type.Optional(
        Type.Array(Type.Object({}, { additionalProperties: true }), {
          description: 'A 404 for an unknown ticker: close listings (company_id, company_name, ticker, mic_code).',
        }),
      ),
    },
    { additionalProperties: false },
  );
}

function schemaOf(dataset: Dataset) {
  const r = dataset.route;
  return {
    operationId: `${r.operationId}Batch`,
    summary: `${dataset.label}: up to ${MAX_JOBS} company-periods in one call`,
    description:
      `POST (the API's exception to GET only), Content-Type: application/json: {"jobs":[…]}, each job the parameters of ${r.path}, ` +
      `its reporting_period a year from ${API_YEARS.first} (earlier than the single call's ${API_YEARS.singleCallFirst}) to ${API_YEARS.last} or an offset. ` +
      'One result per job, in order: 200 with data, 204 with none, 404 with the detail of the single call. Each job is billed as the ' +
      'single call (a company-period repeated in the batch is a repeat), all in one transaction: 402 with nothing charged when the balance ' +
      'does not cover the jobs that would be charged. A malformed job is a 400 for the whole batch, naming it (jobs[3].isin).',
    tags: [r.tag],
    security: [{ bearerAuth: [] }],
    body: jobsBody(identifierProperties.mic_code),
    response: {
      200: {
        description: 'One result per job, in the order of the jobs.',
        headers: CreditHeaders,
        content: {
          'application/json': {
            schema: Type.Object(
              { results: Type.Array(resultSchema(dataset), { description: 'One result per job, in the order of the jobs.' }) },
              { additionalProperties: false },
            ),
          },
        },
      },
      ...commonErrors,
      402: textResponse('Insufficient credits for the jobs that would be charged; nothing was charged.', CreditHeaders),
      403: { description: r.forbidden, headers: CreditHeaders, type: 'null' },
      413: textResponse('The body is over 64 KiB.'),
      415: textResponse('The body is not sent as application/json.'),
    },
  };
}

/** The batch's jobs, or the 400 naming the first malformed job and field. */
export function checkJobs(check: (value: unknown) => BatchBody, body: unknown): Job[] {
  const { jobs } = check(body);
  jobs.forEach((job, i) => {
    if (job.mic_code !== undefined && !MICS.has(job.mic_code)) {
      throw badRequest(`Invalid field 'jobs[${i}].mic_code': ${MIC_RULE}`, `jobs[${i}].mic_code`);
    }
    try {
      identifierOf(job);
    } catch {
      throw badRequest(
        `Missing identifier in 'jobs[${i}]': give one of company_id, isin, lei or ticker (mic_code alone is not enough).`,
        `jobs[${i}]`,
      );
    }
  });
  return jobs;
}

/** A job's refusal as its result: the status and what the problem details of the single call say. */
function refusal(error: ApiError): string {
  return JSON.stringify({ status: error.status, detail: error.message, ...(error.extensions ?? {}) });
}

/**
 * `POST {dataset path}/batch`: up to 100 single calls in one, answered in order, billed per job as
 * the single call, all or nothing (401 -> 400 -> 403 -> per job 200/204/404, or 402 for all).
 */
export function batchRoute(
  ctx: AppContext,
  dataset: Dataset,
  companyData: (companyId: string) => Promise<CompanyData<unknown>>,
  mock: (identifier: string, period: number) => string,
): FastifyPluginAsync {
  const endpoint = `${dataset.name}/batch`;
  const check = bodyChecker<BatchBody>(CheckedBody);
  return async (app) => {
    jsonBodies(app);
    app.post(`${dataset.route.path}/batch`, postRoute(ctx, schemaOf(dataset)), async (request, reply) => {
      const caller = callerOf(request);
      const jobs = checkJobs(check, request.body);
      const results: string[] = [];
      if (caller.mode === 'test') {
        // The magic tickers per job, as live would answer: 404 and 204 are the job's, 403 and 402 the batch's.
        let cost = 0;
        let short = false;
        for (const job of jobs) {
          const outcome = mockOutcome(job.ticker, dataset.subscription, dataset.prices);
          if (outcome instanceof ApiError) {
            if (outcome.kind === 'not_found') {
              results.push(refusal(outcome));
              continue;
            }
            if (outcome.kind !== 'insufficient_credits') throw outcome;
            short = true;
          }
          cost += outcome === 'no-data' ? dataset.prices.noData : dataset.prices.firstAccess;
          results.push(
            outcome === 'no-data'
              ? '{"status":204,"data":[]}'
              : `{"status":200,"data":${mock(identifierOf(job), job.reporting_period)}}`,
          );
        }
        if (short) {
          throw new ApiError(
            'insufficient_credits',
            `Insufficient credits: this call costs ${cost}, the balance is 0; nothing was charged.`,
            {
              cost,
              balance: 0,
            },
          );
        }
        await billAll(ctx, request, reply, caller, []);
        return reply.type('application/json; charset=utf-8').send(`{"results":[${results.join(',')}]}`);
      }
      if (!caller.subscriptions.has(dataset.subscription)) {
        throw subscriptionRequired(dataset.subscription, {
          cost: dataset.prices.firstAccess,
          balance: await ctx.billing.balanceOf(caller.accountId),
        });
      }
      const catalog = await ctx.catalog();
      const parts: Bill[] = [];
      for (const job of jobs) {
        try {
          const { company, described } = findCompany(catalog, job);
          const data = await companyData(company.companyId);
          const outcome = coveredPeriod(data, job.reporting_period, described);
          parts.push(periodBill(endpoint, dataset, company.companyId, outcome.period, outcome.kind === 'data'));
          results.push(
            outcome.kind === 'data' ? `{"status":200,"data":${serializedRecords(outcome.records)}}` : '{"status":204,"data":[]}',
          );
        } catch (error) {
          if (!(error instanceof ApiError) || error.kind !== 'not_found') throw error;
          results.push(refusal(error));
        }
      }
      await billAll(ctx, request, reply, caller, parts);
      return reply.type('application/json; charset=utf-8').send(`{"results":[${results.join(',')}]}`);
    });
  };
}
