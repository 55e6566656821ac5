import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { TEST_TOKEN } from '../../auth/test-token.js';
import { html, page } from '../../web/html.js';
import { type OpenApiDocument, renderReference } from '../../web/reference.js';
import { sendPage } from '../../web/respond.js';
import { finishDocument } from '../openapi-document.js';

/** `/` and `/docs`: public pages, no credentials. */
export function pagesRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    app.get('/', { schema: { hide: true } }, async (_request, reply) => {
      const base = ctx.config.publicUrl;
      const body = html`<h1>Corporate data, traceable to the source</h1>
<p>corpdata serves the total revenue of listed companies, standardized to USD, with the value and currency as reported
and a link to the document each figure comes from; and it finds companies by name, ticker, ISIN or LEI.</p>
<h2>First call</h2>
<p>Try it with the public test token (free, mock data):</p>
<pre><code>curl -H "Authorization: Bearer ${TEST_TOKEN}" \\
  "${base}/api/v1/revenues?ticker=AAPL&amp;reporting_period=-1"</code></pre>
<p>For real data, use an API key from your <a href="/account">account</a>. Every call is billed in credits:
25 for the first access to a company-period, 1 for a repeat or a period without data, 1 for a search, 100 for the company list.</p>
<p>Read the <a href="/docs">API reference</a> or fetch the <a href="/api/v1/openapi.json">OpenAPI document</a>.</p>`;
      return sendPage(reply, 200, page('Corporate data API', body));
    });
    // The page is drawn from the document as served (examples, named schemas), built once per
    // public URL: without CORPDATA_PUBLIC_URL that is known only once the app listens.
    let served: { publicUrl: string; page: string } | undefined;
    app.get('/docs', { schema: { hide: true } }, async (_request, reply) => {
      const publicUrl = ctx.config.publicUrl;
      if (served?.publicUrl !== publicUrl) {
        const doc = finishDocument(app.swagger(), publicUrl, publicUrl, ctx.config.rateLimit !== null) as OpenApiDocument;
        served = { publicUrl, page: page('API reference', renderReference(doc)) };
      }
      return sendPage(reply, 200, served.page);
    });
  };
}
