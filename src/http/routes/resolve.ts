import { type Static, Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../app-context.js';
import type { Catalog } from '../../catalog/catalog.js';
import { TICKER_MAX_LENGTH, UUID_TEXT } from '../../catalog/identifiers.js';
import { MIC_CODES } from '../../catalog/mic-codes.js';
import { RESOLVE_CREDITS } from '../../credits/prices.js';
import { ApiError, badRequest } from '../../errors/api-error.js';
import { mockCompany } from '../../mock/mock-data.js';
import { callerOf } from '../auth-hook.js';
import { bill } from '../bill.js';
import { billAll } from '../bill-all.js';
import { lookUp } from '../company-lookup.js';
import { bodyChecker, jsonBodies, MAX_JOBS, postRoute } from '../json-body.js';
import { CompanyRecordSchema, CreditHeaders, commonErrors, micCodeSchema, textResponse } from '../schemas.js';
import { MOCK_STATUS_TICKERS } from '../test-mode.js';
import { isinSchema, leiSchema } from './dataset-query.js';

const MIC_RULE = 'one of the Market Identifier Codes listed in the API reference.';
const MICS: ReadonlySet<string> = new Set(MIC_CODES);
const UUID = new RegExp(`^${UUID_TEXT}$`);

function resolveBody<M extends ReturnType<typeof Type.String> | ReturnType<typeof micCodeSchema>>(mic: M) {
  return Type.Object(
    {
      jobs: Type.Array(
        Type.Object(
          {
            company_id: Type.Optional(Type.String({ format: 'uuid', description: 'a UUID.' })),
            isin: Type.Optional(isinSchema()),
            lei: Type.Optional(leiSchema()),
            cik: Type.Optional(
              Type.String({ pattern: '^[0-9]{1,10}$', description: 'an SEC CIK: 1 to 10 digits, leading zeros optional.' }),
            ),
            ticker: Type.Optional(
              Type.String({
                minLength: 1,
                maxLength: TICKER_MAX_LENGTH,
                description: `a stock ticker of 1 to ${TICKER_MAX_LENGTH} characters.`,
              }),
            ),
            mic_code: Type.Optional(mic),
            name: Type.Optional(
              Type.String({
                minLength: 1,
                maxLength: 100,
                description: 'a company name of 1 to 100 characters: its best search match.',
              }),
            ),
          },
          { additionalProperties: false },
        ),
        {
          minItems: 1,
          maxItems: MAX_JOBS,
          description: `from 1 to ${MAX_JOBS} jobs, each one identifier: company_id > isin > lei > cik > ticker (+ mic_code) > name.`,
        },
      ),
    },
    { additionalProperties: false },
  );
}

const CheckedBody = resolveBody(Type.String({ description: MIC_RULE }));
type ResolveBody = Static<typeof CheckedBody>;
type Job = ResolveBody['jobs'][number];

const schema = {
  operationId: 'resolveCompanies',
  summary: `Companies for up to ${MAX_JOBS} identifiers in one call`,
  description:
    'POST (the API’s exception to GET only), Content-Type: application/json: {"jobs":[…]}, each job one identifier (ticker with optional mic_code, isin, lei, cik, ' +
    'name, or company_id). One result per job, in order: 200 with the company record, or 404 with why. ' +
    `Costs ${RESOLVE_CREDITS} credit per job that resolves (0 for the others), in one charge: 402 with nothing charged when the balance does not cover it. ` +
    'A name resolves to its best search match. A malformed job is a 400 for the whole call, naming it (jobs[3].isin).',
  tags: ['companies'],
  security: [{ bearerAuth: [] }],
  body: resolveBody(micCodeSchema(MIC_RULE)),
  response: {
    200: {
      description: 'One result per job, in the order of the jobs.',
      headers: CreditHeaders,
      content: {
        'application/json': {
          schema: Type.Object(
            {
              results: Type.Array(
                Type.Object(
                  {
                    status: Type.Integer({ description: '200 (resolved) or 404 (no company matches).' }),
                    data: Type.Optional(CompanyRecordSchema),
                    detail: Type.Optional(Type.String({ description: 'Why no company matches (404).' })),
                    did_you_mean: Type.Optional(
                      Type.Array(Type.Object({}, { additionalProperties: true }), {
                        description: 'Close listings, where a ticker has some.',
                      }),
                    ),
                  },
                  { additionalProperties: false },
                ),
                { description: 'One result per job, in the order of the jobs.' },
              ),
            },
            { additionalProperties: false },
          ),
        },
      },
    },
    ...commonErrors,
    402: textResponse('Insufficient credits; nothing was charged.', CreditHeaders),
    413: textResponse('The body is over 64 KiB.'),
    415: textResponse('The body is not sent as application/json.'),
  },
};

/** The jobs, or the 400 naming the first malformed one. */
function checkJobs(check: (value: unknown) => ResolveBody, body: unknown): Job[] {
  const { jobs } = check(body);
  jobs.forEach((job, i) => {
    if (job.mic_code !== undefined && !MICS.has(job.mic_code)) {
      throw badRequest(`Invalid field 'jobs[${i}].mic_code': ${MIC_RULE}`, `jobs[${i}].mic_code`);
    }
    const named = [job.company_id, job.isin, job.lei, job.cik, job.ticker, job.name].some((v) => v !== undefined);
    if (!named) {
      throw badRequest(
        `Missing identifier in 'jobs[${i}]': give one of company_id, isin, lei, cik, ticker or name (mic_code alone is not enough).`,
        `jobs[${i}]`,
      );
    }
  });
  return jobs;
}

/** A job's company, or the 404 as the dataset calls word it. */
function resolveJob(catalog: Catalog, job: Job): string {
  if (job.company_id === undefined && job.isin === undefined && job.lei === undefined) {
    if (job.cik !== undefined) {
      const company = catalog.byCik(job.cik);
      const record = company === undefined ? undefined : catalog.record(company.companyId);
      // A company added from its filings alone has no listing, so no company record (design §19.1).
      if (record === undefined) return JSON.stringify({ status: 404, detail: 'No company matches the given cik.' });
      return `{"status":200,"data":${JSON.stringify(record)}}`;
    }
    if (job.ticker === undefined && job.name !== undefined) {
      const id = catalog.search.search(job.name, 1)[0];
      const record = id === undefined ? undefined : catalog.record(id);
      if (record === undefined) return JSON.stringify({ status: 404, detail: 'No company matches the given name.' });
      return `{"status":200,"data":${JSON.stringify(record)}}`;
    }
  }
  const { company, described } = lookUp(catalog, job);
  const record = company === undefined ? undefined : catalog.record(company.companyId);
  if (record === undefined) return JSON.stringify({ status: 404, detail: `No company matches ${described}.` });
  return `{"status":200,"data":${JSON.stringify(record)}}`;
}

/** A stable text naming a job's identifier, for its mock company. */
function mockIdentifier(job: Job): string {
  return (
    job.company_id ??
    job.isin ??
    job.lei ??
    job.cik ??
    (job.ticker === undefined ? (job.name ?? '') : `${job.ticker}@${job.mic_code ?? ''}`)
  );
}

/**
 * `POST /api/v1/companies/resolve`: up to 100 identifiers to company records, in order, 1 credit per
 * job that resolves (401 -> 400 -> per job 200/404, or 402 for all).
 */
export function resolveRoute(ctx: AppContext): FastifyPluginAsync {
  const check = bodyChecker<ResolveBody>(CheckedBody);
  return async (app) => {
    jsonBodies(app);
    app.post('/api/v1/companies/resolve', postRoute(ctx, schema), async (request, reply) => {
      const caller = callerOf(request);
      const jobs = checkJobs(check, request.body);
      let results: string[];
      if (caller.mode === 'test') {
        let short = false;
        results = jobs.map((job) => {
          const status = MOCK_STATUS_TICKERS[job.ticker?.toUpperCase() as keyof typeof MOCK_STATUS_TICKERS];
          if (status === 404) return JSON.stringify({ status: 404, detail: 'No company matches the given ticker.' });
          if (status === 402) short = true;
          const id = mockIdentifier(job);
          const record = mockCompany(id.toUpperCase(), job.name ?? job.ticker ?? 'Sample');
          if (job.company_id !== undefined && UUID.test(job.company_id)) record.company_id = job.company_id.toLowerCase();
          return `{"status":200,"data":${JSON.stringify(record)}}`;
        });
        const cost = RESOLVE_CREDITS * results.filter((r) => r.startsWith('{"status":200')).length;
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
      } else {
        const catalog = await ctx.catalog();
        results = jobs.map((job) => resolveJob(catalog, job));
        const resolved = results.filter((r) => r.startsWith('{"status":200')).length;
        // One charge of the call's price: resolving buys nothing, so it is an ordinary single call.
        if (resolved === 0) await billAll(ctx, request, reply, caller, []);
        else await bill(ctx, request, reply, caller, { endpoint: 'companies/resolve', price: RESOLVE_CREDITS * resolved });
      }
      return reply.type('application/json; charset=utf-8').send(`{"results":[${results.join(',')}]}`);
    });
  };
}
