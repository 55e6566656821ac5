import { createHash } from 'node:crypto';
import { type Static, Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../app-context.js';
import type { Catalog } from '../../catalog/catalog.js';
import { SEARCH_LIMIT } from '../../catalog/search/search-index.js';
import { LIST_CREDITS, SEARCH_CREDITS } from '../../credits/prices.js';
import { mockList, mockSearch } from '../../mock/mock-data.js';
import { lists, quality } from '../accept.js';
import { apiRoute } from '../api-route.js';
import { callerOf } from '../auth-hook.js';
import { bill } from '../bill.js';
import { freeCall } from '../free-call.js';
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

const EtagHeader = {
  ETag: Type.String({ description: 'Strong validator of the catalog: send it back in If-None-Match.' }),
} as const;

function strongEtag(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
}

/**
 * The strong ETags of a catalog's list, one per representation (RFC 9110 §8.8.3: the gzip bytes are
 * another representation than the JSON text, so they need another strong validator), computed once.
 */
const etags = new WeakMap<Catalog, { identity: string; gzip: string }>();
function etagsOf(catalog: Catalog): { identity: string; gzip: string } {
  let tags = etags.get(catalog);
  if (tags === undefined) {
    const identity = strongEtag(catalog.listJson);
    tags = { identity, gzip: `${identity.slice(0, -1)}-gzip"` };
    etags.set(catalog, tags);
  }
  return tags;
}

/** True when Accept-Encoding admits gzip: listed (or by `*` when gzip is not named) with a q above 0. */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  if (lists(acceptEncoding, 'gzip') || lists(acceptEncoding, 'x-gzip')) return quality(acceptEncoding, 'gzip', 'x-gzip') > 0;
  return quality(acceptEncoding, '*') > 0;
}

/** If-None-Match compares weakly (RFC 9110 §13.1.2): W/"x" matches "x"; * matches any. */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
}

const listSchema = {
  operationId: 'listCompanies',
  summary: 'Every company (Beta)',
  description:
    'All companies in one array; served gzip-compressed when the client accepts it. Costs 100 credits. ' +
    'The answer carries a strong ETag: sent back in If-None-Match while the catalog is unchanged, it gets a free 304.',
  tags: ['companies'],
  security: [{ bearerAuth: [] }],
  querystring: Type.Object({}, { additionalProperties: false }),
  response: {
    200: { ...companyArray('Every company.'), headers: { ...CreditHeaders, ...EtagHeader } },
    304: {
      description: 'The catalog is unchanged since the ETag given in If-None-Match; nothing was charged.',
      headers: { ...CreditHeaders, ...EtagHeader },
      type: 'null',
    },
    ...commonErrors,
    402: textResponse('Insufficient credits; nothing was charged.', CreditHeaders),
  },
};

export function companiesRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Querystring: SearchQuery }>('/api/v1/companies/search', apiRoute(ctx, searchSchema), async (request, reply) => {
      const caller = callerOf(request);
      if (caller.mode === 'test') {
        const records = mockSearch(request.query.query);
        await bill(ctx, request, reply, caller, { endpoint: 'companies/search', price: SEARCH_CREDITS });
        return reply.send(records);
      }
      const json = (await ctx.catalog()).searchJson(request.query.query);
      await bill(ctx, request, reply, caller, {
        endpoint: 'companies/search',
        price: SEARCH_CREDITS,
        // A NUL cannot be stored in a PostgreSQL text column; the ledger keeps the query readable without it.
        detail: request.query.query.replaceAll('\0', '\uFFFD'),
      });
      return reply.type('application/json; charset=utf-8').send(json);
    });

    app.get('/api/v1/companies/list', apiRoute(ctx, listSchema), async (request, reply) => {
      const caller = callerOf(request);
      const ifNoneMatch = request.headers['if-none-match'];
      if (caller.mode === 'test') {
        const list = JSON.stringify(mockList());
        const etag = strongEtag(list);
        reply.header('etag', etag);
        if (matches(ifNoneMatch, etag)) {
          await freeCall(ctx, reply, caller);
          return reply.code(304).send();
        }
        await bill(ctx, request, reply, caller, { endpoint: 'companies/list', price: LIST_CREDITS });
        return reply.type('application/json; charset=utf-8').send(list);
      }
      const catalog = await ctx.catalog();
      const gzip = acceptsGzip(request.headers['accept-encoding']);
      const etag = gzip ? etagsOf(catalog).gzip : etagsOf(catalog).identity;
      // On the 304 too: a cache must know the answer depends on Accept-Encoding (RFC 9110 §15.4.5).
      reply.header('vary', 'accept-encoding');
      if (matches(ifNoneMatch, etag)) {
        await freeCall(ctx, reply, caller);
        return reply.header('etag', etag).code(304).send();
      }
      await bill(ctx, request, reply, caller, { endpoint: 'companies/list', price: LIST_CREDITS });
      // Only a paid answer names the list's validator (a refusal is no representation of it).
      reply.header('etag', etag).type('application/json; charset=utf-8');
      // The list is serialized and compressed once per catalog, not once per call.
      if (gzip) return reply.header('content-encoding', 'gzip').send(catalog.listGzip);
      return reply.send(catalog.listJson);
    });
  };
}
