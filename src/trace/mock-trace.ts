import { MOCK_TRACE_SAYS } from '../mock/mock-provenance.js';
import { html, page } from '../web/html.js';

/** What a mock record's traceability link shows: that it is mock data, and how to get real figures. */
export function mockTracePage(id: string): string {
  return page(
    'Mock data point',
    html`<p class="muted">Traceability of a data point</p>
<h1>Mock data point</h1>
<div class="notice" role="status"><p>${MOCK_TRACE_SAYS}</p>
<p>Real figures, each traced to its filing or report, are answered to an account's API key: <a href="/account/sign-in">sign in</a> to create one.</p></div>
<dl class="facts"><dt>Data point id</dt><dd><code>${id}</code></dd><dt>Mode</dt><dd>test (mock data)</dd></dl>`,
  );
}
