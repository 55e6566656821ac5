import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../app-context.js';
import { TEST_TOKEN } from '../auth/test-token.js';
import type { StatusLoader } from '../freshness/source-status.js';
import { finishDocument } from '../http/openapi-document.js';
import { scriptNonce, sendPage } from '../http/respond.js';
import { page } from '../web/html.js';
import { type Coverage, loadCoverage } from './coverage-query.js';
import { homePage } from './home-page.js';
import { NONCE_SLOT, type OpenApiDocument, renderReference } from './reference.js';

/** `/` and `/docs`: public pages, no credentials. */
export function pagesRoutes(ctx: AppContext, status: StatusLoader): FastifyPluginAsync {
  return async (app) => {
    // Coverage is counted once per data version: an import anywhere drops it.
    let coverage: Promise<Coverage> | undefined;
    ctx.onDataChange(() => {
      coverage = undefined;
    });
    app.get('/', { schema: { hide: true } }, async (_request, reply) => {
      coverage ??= loadCoverage(ctx.db.kysely, ctx.datasets).catch((error: unknown) => {
        coverage = undefined;
        throw error;
      });
      const [covered, fresh] = await Promise.all([coverage, status()]);
      return sendPage(reply, 200, homePage(ctx.datasets, covered, fresh.sources, ctx.config.publicUrl, TEST_TOKEN));
    });
    // The page is drawn from the document as served (examples, named schemas), built once per
    // public URL: without CORPDATA_PUBLIC_URL that is known only once the app listens. It is kept
    // cut at its nonce slot, so that an answer joins three strings instead of searching the page.
    let served: { publicUrl: string; head: string; tail: string } | undefined;
    app.get('/docs', { schema: { hide: true } }, async (_request, reply) => {
      const publicUrl = ctx.config.publicUrl;
      if (served?.publicUrl !== publicUrl) {
        const doc = finishDocument(
          app.swagger(),
          ctx.datasets,
          publicUrl,
          publicUrl,
          ctx.config.rateLimit !== null,
        ) as OpenApiDocument;
        served = { publicUrl, ...cutAtSlot(page('API reference', renderReference(doc))) };
      }
      const nonce = scriptNonce();
      return sendPage(reply, 200, served.head + nonce + served.tail, nonce);
    });
  };
}

/** A page cut at its (first) nonce slot, which the reference page always has. */
function cutAtSlot(document: string): { head: string; tail: string } {
  const at = document.indexOf(NONCE_SLOT);
  if (at < 0) throw new Error('the reference page has no nonce slot');
  return { head: document.slice(0, at), tail: document.slice(at + NONCE_SLOT.length) };
}
