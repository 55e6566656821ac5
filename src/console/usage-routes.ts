import type { FastifyInstance } from 'fastify';
import { sendPage } from '../http/respond.js';
import { boughtData } from './bought-data.js';
import { type ConsoleDeps, pageSession, queryText } from './console-deps.js';
import { subscriptionsOf } from './explorer-query.js';
import { listKeys } from './keys-query.js';
import { usagePage } from './usage-page.js';
import { balanceOf, dailySpend, ledgerPage } from './usage-query.js';

const MAX_PAGE = 100_000;

/** Balance, subscriptions, per-day usage, the ledger and the purchased company-periods with their figures. */
export function usageRoutes(app: FastifyInstance, deps: ConsoleDeps): void {
  const { ctx } = deps;
  const db = ctx.db.kysely;

  app.get('/account/usage', { schema: { hide: true } }, async (request, reply) => {
    const session = await pageSession(deps, request, reply);
    if (session === undefined) return reply;
    const now = ctx.clock();
    const keys = await listKeys(db, session.accountId, now);
    const wanted = queryText(request.query, 'key');
    // Only this account's keys filter anything; any other id shows the whole ledger.
    const keyId = keys.find((k) => k.keyId === wanted)?.keyId;
    const pageText = queryText(request.query, 'page') ?? '1';
    const page = /^[0-9]{1,6}$/.test(pageText) ? Math.min(MAX_PAGE, Math.max(1, Number(pageText))) : 1;
    const [balance, subscriptions, ledger, days, bought] = await Promise.all([
      balanceOf(db, session.accountId),
      subscriptionsOf(db, session.accountId),
      ledgerPage(db, session.accountId, { keyId, page }),
      dailySpend(db, session.accountId, keyId, now),
      boughtData(ctx, session.accountId),
    ]);
    return sendPage(
      reply,
      200,
      usagePage(session, {
        datasets: ctx.datasets,
        balance,
        subscriptions,
        keys,
        keyId,
        page,
        ...ledger,
        days,
        purchases: bought,
      }),
    );
  });
}
