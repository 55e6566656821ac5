import { type Static, Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { SEARCH_LIMIT } from '../../catalog/search/search-index.js';
import { LIST_CREDITS, SEARCH_CREDITS } from '../../credits/prices.js';
import { mockList, mockSearch } from '../../mock/mock-data.js';
import { authHook, callerOf } from '../auth-hook.js';
import { bill } from '../bill.js';
import { queryGuard } from '../query-guard.js';
import { CompanyRecordSchema, CreditHeaders, commonErrors, textResponse } from '../schemas.js';

export const SearchQuery = Type.Object(
  { query: Type.String({ minLength: 1, maxLength: 100, description: 'text of 1 to 100 characters.' }) },
  { additionalProperties: false },
);
export type SearchQuery = Static<typeof SearchQuery>;

const companyArray = (description: string, maxItems?: number) => ({
  description,
  headers: CreditHeaders,
  content: { 'application/json': { schema: Type.Array(CompanyRecordSchema, maxItems === undefined ? {} : { maxItems }) } },
});

const searchSchema = {
  operationId: 'searchCompanies',
  summary: 'Find companies by name or ticker (Beta)',
  description:
    `At most ${SEARCH_LIMIT} companies, most relevant first: exact ticker, exact name, whole words, prefixes, inside a word, then fuzzy matches. ` +
    'Case-, accent- and legal-suffix-insensitive. Costs 1 credit.',
  tags: ['companies'],
  security: [{ bearerAuth: [] }],
  querystring: SearchQuery,
  response: {
    200: companyArray(`Up to ${SEARCH_LIMIT} companies, most relevant first.`, SEARCH_LIMIT),
    ...commonErrors,
    402: textResponse('Insufficient credits; nothing was charged.', CreditHeaders),
  },
};

const listSchema = {
  operationId: 'listCompanies',
  summary: 'Every company (Beta)',
  description: 'All companies in one array; served gzip-compressed when the client accepts it. Costs 100 credits.',
  tags: ['companies'],
  security: [{ bearerAuth: [] }],
  querystring: Type.Object({}, { additionalProperties: false }),
  response: {
    200: companyArray('Every company.'),
    ...commonErrors,
    402: textResponse('Insufficient credits; nothing was charged.', CreditHeaders),
  },
};

export function companiesRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Querystring: SearchQuery }>(
      '/api/v1/companies/search',
      { schema: searchSchema, onRequest: authHook(ctx), preValidation: queryGuard },
      async (request, reply) => {
        const caller = callerOf(request);
        if (caller.mode === 'test') {
          const records = mockSearch(request.query.query);
          await bill(ctx, request, reply, caller, { endpoint: 'companies/search', price: SEARCH_CREDITS });
          return reply.send(records);
        }
        const json = (await ctx.catalog()).searchJson(request.query.query);
        await bill(ctx, request, reply, caller, { endpoint: 'companies/search', price: SEARCH_CREDITS });
        return reply.type('application/json; charset=utf-8').send(json);
      },
    );

    app.get(
      '/api/v1/companies/list',
      { schema: listSchema, onRequest: authHook(ctx), preValidation: queryGuard },
      async (request, reply) => {
        const caller = callerOf(request);
        if (caller.mode === 'test') {
          await bill(ctx, request, reply, caller, { endpoint: 'companies/list', price: LIST_CREDITS });
          return reply.send(mockList());
        }
        const catalog = await ctx.catalog();
        await bill(ctx, request, reply, caller, { endpoint: 'companies/list', price: LIST_CREDITS });
        // The list is serialized and compressed once per catalog, not once per call.
        reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding');
        if (/\bgzip\b/.test(request.headers['accept-encoding'] ?? '')) {
          return reply.header('content-encoding', 'gzip').send(catalog.listGzip);
        }
        return reply.send(catalog.listJson);
      },
    );
  };
}
