import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Company } from '../catalog/catalog.js';
import { datasetNamed } from '../datasets/dataset-list.js';
import { scriptNonce, sendErrorPage, sendPage } from '../http/respond.js';
import { boughtData } from './bought-data.js';
import { buyPage } from './buy-page.js';
import { companiesPage, QUERY_MAX_LENGTH, searchResults } from './companies-page.js';
import { companyPage } from './company-page.js';
import { type ConsoleDeps, pageSession, postedForm, queryText, takeRequest } from './console-deps.js';
import { buy, buyAll, type Quote, quote } from './console-purchase.js';
import { exportRows, toCsv } from './data-export.js';
import { dataPage } from './data-page.js';
import { coverageOf } from './explorer-query.js';
import { textField } from './form-body.js';
import { itemsForSale, statementCoverage } from './statement-table.js';
import { balanceOf } from './usage-query.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const YEAR = /^[0-9]{4}$/;
/** More periods than any company has: a longer list is not a person's choice. */
const MAX_PERIODS = 100;

/** The years of a repeated `period` parameter (or a comma-separated list); undefined when any is not a year. */
export function yearsOf(value: unknown): number[] | undefined {
  // An empty list (no box ticked) is a list: the quote then says to choose a period.
  const parts = (Array.isArray(value) ? value : typeof value === 'string' && value !== '' ? value.split(',') : []) as unknown[];
  if (parts.length > MAX_PERIODS) return undefined;
  const years: number[] = [];
  for (const p of parts) {
    if (typeof p !== 'string' || !YEAR.test(p.trim())) return undefined;
    years.push(Number(p.trim()));
  }
  return years;
}

/** The search query of a request, bounded as the API bounds it. */
function queryOf(query: unknown): string {
  return (queryText(query, 'query') ?? '').trim().slice(0, QUERY_MAX_LENGTH);
}

function unknownCompany(reply: FastifyReply): FastifyReply {
  return sendErrorPage(reply, 404, 'No such company', 'There is no company with this id. Search for it by name or ticker.');
}

/**
 * The data explorer (design §16): company search, a company's coverage and purchases with charts
 * and tables, the buy step, and the bought data with its downloads. Buying charges through the
 * API's own bill (console-purchase.ts); the search is free here, but limited as the API's is: each
 * search (the page and the fragment fetched while typing) draws from the account's rate-limit bucket.
 */
export function explorerRoutes(app: FastifyInstance, deps: ConsoleDeps): void {
  const { ctx } = deps;
  const db = ctx.db.kysely;
  const companyOf = async (id: string): Promise<Company | undefined> =>
    UUID.test(id) ? (await ctx.catalog()).byId(id.toLowerCase()) : undefined;

  app.get('/account/companies', { schema: { hide: true } }, async (request, reply) => {
    const session = await pageSession(deps, request, reply);
    if (session === undefined) return reply;
    takeRequest(deps, session, reply);
    const query = queryOf(request.query);
    const nonce = scriptNonce();
    const results = searchResults(await ctx.catalog(), query);
    return sendPage(reply, 200, companiesPage(session, query, results, nonce), nonce, { fetchesSelf: true });
  });

  app.get('/account/companies/results', { schema: { hide: true } }, async (request, reply) => {
    const session = await deps.auth.current(request);
    if (session === undefined) return reply.code(401).type('text/plain; charset=utf-8').send('Signed out.');
    takeRequest(deps, session, reply);
    const fragment = searchResults(await ctx.catalog(), queryOf(request.query));
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(fragment.value);
  });

  app.get<{ Params: { id: string } }>('/account/companies/:id', { schema: { hide: true } }, async (request, reply) => {
    const session = await pageSession(deps, request, reply);
    if (session === undefined) return reply;
    const company = await companyOf(request.params.id);
    if (company === undefined) return unknownCompany(reply);
    const [balance, coverage] = await Promise.all([
      balanceOf(db, session.accountId),
      coverageOf(ctx.datasets, db, session.accountId, company.companyId, ctx.config.publicUrl),
    ]);
    const boughtNow = datasetNamed(ctx.datasets, queryText(request.query, 'bought'));
    const years = yearsOf(queryText(request.query, 'periods'));
    const message =
      boughtNow === undefined || years === undefined || years.length === 0
        ? undefined
        : {
            kind: 'info' as const,
            text: `Bought: ${boughtNow.label} ${years.join(', ')}. The figures are below.`,
            dataset: boughtNow.name,
          };
    const [statementPeriod] = yearsOf(queryText(request.query, 'statement')) ?? [];
    return sendPage(
      reply,
      200,
      companyPage(session, {
        company,
        balance,
        coverage,
        ...(statementPeriod === undefined ? {} : { statementPeriod }),
        ...(message ? { message } : {}),
      }),
    );
  });

  app.get<{ Params: { id: string } }>('/account/companies/:id/buy', { schema: { hide: true } }, async (request, reply) => {
    const session = await pageSession(deps, request, reply);
    if (session === undefined) return reply;
    const company = await companyOf(request.params.id);
    if (company === undefined) return unknownCompany(reply);
    const dataset = datasetNamed(ctx.datasets, queryText(request.query, 'dataset'));
    const years = yearsOf((request.query as Record<string, unknown>).period ?? []);
    if (dataset === undefined || years === undefined) {
      return sendErrorPage(reply, 400, 'Request refused', "Parameter 'dataset' or 'period' is not one this page offers.");
    }
    const q = await quote(ctx, session.accountId, dataset, company.companyId, years);
    return sendPage(reply, 200, buyPage(session, company, dataset, q));
  });

  app.post<{ Params: { id: string } }>('/account/companies/:id/buy', { schema: { hide: true } }, async (request, reply) => {
    const posted = await postedForm(deps, request, reply);
    if (posted === undefined) return reply;
    const { session, form } = posted;
    const company = await companyOf(request.params.id);
    if (company === undefined) return unknownCompany(reply);
    const dataset = datasetNamed(ctx.datasets, textField(form, 'dataset'));
    const years = yearsOf(textField(form, 'periods'));
    if (dataset === undefined || years === undefined) {
      return sendErrorPage(reply, 400, 'Request refused', "Field 'dataset' or 'periods' is not one this page offers.");
    }
    const q = await quote(ctx, session.accountId, dataset, company.companyId, years);
    // Too few credits by the quote is left to the charge, which decides on the balance it locks.
    if (!q.ok && q.refusal !== 'credits') {
      return sendPage(reply, q.refusal === 'subscription' ? 403 : 400, buyPage(session, company, dataset, q));
    }
    const charged = await buy(ctx, session.accountId, request.id, dataset, company.companyId, q.periods);
    if (!charged.ok) {
      const refused: Quote = {
        ...q,
        ok: false,
        refusal: 'credits',
        reason: `Insufficient credits: this purchase costs ${charged.cost}, the balance is ${charged.balance}; nothing was charged.`,
      };
      return sendPage(reply, 402, buyPage(session, company, dataset, refused));
    }
    const params = new URLSearchParams({ bought: dataset.name, periods: q.periods.join(',') });
    return reply
      .code(303)
      .header('cache-control', 'no-store')
      .header('location', `/account/companies/${company.companyId}?${params}#${dataset.name}`)
      .send();
  });

  // Buys every statement item of a period the account may buy (design §18.3), in one charge.
  app.post<{ Params: { id: string } }>('/account/companies/:id/statement', { schema: { hide: true } }, async (request, reply) => {
    const posted = await postedForm(deps, request, reply);
    if (posted === undefined) return reply;
    const { session, form } = posted;
    const company = await companyOf(request.params.id);
    if (company === undefined) return unknownCompany(reply);
    const years = yearsOf(textField(form, 'period'));
    const period = years?.length === 1 ? years[0] : undefined;
    if (period === undefined) return sendErrorPage(reply, 400, 'Request refused', "Field 'period' is not one this page offers.");
    const items = statementCoverage(
      await coverageOf(ctx.datasets, db, session.accountId, company.companyId, ctx.config.publicUrl),
    );
    const forSale = itemsForSale(items, period);
    if (forSale.length === 0) {
      return sendErrorPage(
        reply,
        400,
        'Nothing to buy',
        `No item of ${period} is for sale to this account: each is bought, without a figure, or needs a subscription.`,
      );
    }
    const charged = await buyAll(
      ctx,
      session.accountId,
      request.id,
      company.companyId,
      forSale.map((c) => ({ dataset: c.dataset, period })),
    );
    if (!charged.ok) {
      return sendErrorPage(
        reply,
        402,
        'Insufficient credits',
        `Insufficient credits: these items cost ${charged.cost}, the balance is ${charged.balance}; nothing was charged.`,
      );
    }
    return reply
      .code(303)
      .header('cache-control', 'no-store')
      .header('location', `/account/companies/${company.companyId}?statement=${period}#statement`)
      .send();
  });

  app.get('/account/data', { schema: { hide: true } }, async (request, reply) => {
    const session = await pageSession(deps, request, reply);
    if (session === undefined) return reply;
    return sendPage(reply, 200, dataPage(ctx.datasets, session, await boughtData(ctx, session.accountId)));
  });

  for (const format of ['csv', 'json'] as const) {
    app.get(`/account/data.${format}`, { schema: { hide: true } }, async (request, reply) => {
      const session = await pageSession(deps, request, reply);
      if (session === undefined) return reply;
      const wanted = queryText(request.query, 'dataset');
      const dataset = datasetNamed(ctx.datasets, wanted);
      if (wanted !== undefined && dataset === undefined) {
        return sendErrorPage(reply, 400, 'Request refused', "Parameter 'dataset' names no dataset.");
      }
      const bought = (await boughtData(ctx, session.accountId)).filter(
        (b) => dataset === undefined || b.dataset === dataset.name,
      );
      const rows = exportRows(bought, ctx.config.publicUrl);
      const name = `corpdata-${dataset?.name ?? 'data'}.${format}`;
      reply
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('content-security-policy', "default-src 'none'; sandbox");
      return format === 'csv'
        ? reply.type('text/csv; charset=utf-8').send(toCsv(rows))
        : reply.type('application/json; charset=utf-8').send(JSON.stringify(rows));
    });
  }
}
