import { html, page } from '../web/html.js';

/** The ids the test token's mock records point to (`/trace/mock-…`): never a real data point. */
export function isMockTraceId(id: string): boolean {
  return /^mock-[0-9a-f-]{36}(~mock-[0-9a-f-]{36})?$/i.test(id);
}

const SAYS =
  'This data point is mock data, answered to the public test token: it comes from no document and its figures are made up.';

/** What a mock record's traceability link shows: that it is mock data, and how to get real figures. */
export function mockTracePage(id: string): string {
  return page(
    'Mock data point',
    html`<p class="muted">Traceability of a data point</p>
<h1>Mock data point</h1>
<div class="notice" role="status"><p>${SAYS}</p>
<p>Real figures, each traced to its filing or report, are answered to an account's API key: <a href="/account/sign-in">sign in</a> to create one.</p></div>
<dl class="facts"><dt>Data point id</dt><dd><code>${id}</code></dd><dt>Mode</dt><dd>test (mock data)</dd></dl>`,
  );
}

/** The same as JSON, for `/trace/{id}` asked with `Accept: application/json`. */
export function mockProvenance(id: string, publicUrl: string): Record<string, unknown> {
  return { data_point_id: id, mock: true, detail: SAYS, traceability_source_url: `${publicUrl}/trace/${id}` };
}
