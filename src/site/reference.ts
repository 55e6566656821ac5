import { TEST_TOKEN } from '../auth/test-token.js';
import { type Html, html, raw } from '../web/html.js';
import { errorsSection } from './reference-errors.js';
import { micSection } from './reference-mics.js';
import { example, KEY_VARIABLE, operationSection } from './reference-operation.js';
import { type Endpoint, endpoints, type Header, type OpenApiDocument } from './reference-schema.js';
import { REFERENCE_STYLE } from './reference-style.js';

export type { OpenApiDocument } from './reference-schema.js';

/** The common start of the API's paths (`/api/v1`), said once so the contents fit a phone in two columns. */
function commonPrefix(list: Endpoint[]): string {
  const first = list[0]?.path ?? '';
  let prefix = first.slice(0, first.lastIndexOf('/'));
  while (prefix !== '' && !list.every((e) => e.path.startsWith(`${prefix}/`))) prefix = prefix.slice(0, prefix.lastIndexOf('/'));
  return prefix;
}

function contents(list: Endpoint[]): Html {
  const prefix = commonPrefix(list);
  return html`<nav class="toc" aria-labelledby="contents"><h2 id="contents">Contents</h2>
<ul><li><a href="#start">First call</a></li><li><a href="#headers">Headers</a></li><li><a href="#errors">Errors</a></li><li><a href="#mic-codes">MIC codes</a></li></ul>
<p>Endpoints, under <code>${prefix}/</code>:</p>
<ul>${list.map((e) => html`<li><a href="#${e.id}"><code>${e.path.slice(prefix.length + 1)}</code></a></li>`)}</ul></nav>`;
}

/** Every response header the document declares, once, with what it says. */
function headersSection(list: Endpoint[]): Html {
  const headers = new Map<string, Header>();
  for (const e of list) {
    for (const r of Object.values(e.op.responses ?? {})) {
      for (const [name, h] of Object.entries(r.headers ?? {})) if (!headers.has(name)) headers.set(name, h);
    }
  }
  return html`<details id="headers"><summary>Response headers</summary>
<p>Every answer carries <code>X-Request-Id</code>; every 200, 204, 402 and 403 carries the credit headers.</p>
<dl class="fields">${[...headers].map(
    ([name, h]) => html`<div class="field"><dt><code>${name}</code></dt><dd>${h.description ?? ''}</dd></div>`,
  )}</dl></details>`;
}

/** True for an operation on a path right below another operation's (`/revenues/history` below `/revenues`). */
function isSub(list: Endpoint[], e: Endpoint): boolean {
  const parent = e.path.slice(0, e.path.lastIndexOf('/'));
  return list.some((other) => other.path === parent);
}

/** Where the page's script nonce goes: the page is built once, each answer puts its own nonce here. */
export const NONCE_SLOT = '{{nonce}}';

/**
 * A link to a section (the contents, a shared URL, a problem's type) opens that section's fold and
 * brings its heading to the top of the screen; the fold a previous link opened closes, so that on a
 * phone the page stays a few screens long whatever one reads. Without scripts the folds stay as
 * they are and the links still lead to the headings.
 */
const FOLLOW_LINKS = `(function () {
  var opened = null;
  function follow() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id === '' ? null : document.getElementById(id);
    if (target === null) return;
    var fold = target.closest('details');
    if (fold === null) {
      var section = target.closest('section');
      fold = section === null ? null : section.querySelector(':scope > details.fold');
    }
    if (opened !== null && opened !== fold) opened.open = false;
    opened = null;
    if (fold !== null && !fold.open) { fold.open = true; opened = fold; }
    target.scrollIntoView({ block: 'start' });
  }
  window.addEventListener('hashchange', follow);
  follow();
})();`;

/** Renders the API reference page from the served OpenAPI document, so the two never disagree. */
export function renderReference(doc: OpenApiDocument): Html {
  const list = endpoints(doc);
  const base = doc.servers?.[0]?.url ?? '';
  const first = list[0];
  return html`<style>${raw(REFERENCE_STYLE)}</style>
<h1>${doc.info.title} <span class="muted">v${doc.info.version}</span></h1>
<p>${(doc.info.description ?? '').split(' Test mode:')[0]}</p>
${contents(list)}
<section aria-labelledby="start"><h2 id="start">First call</h2>
<p>Every call needs <code>Authorization: Bearer &lt;API key&gt;</code>. Your keys are in your
<a href="/account">account</a>; the public test token gets free, deterministic mock data. The examples read
the key from <code>${KEY_VARIABLE}</code>:</p>
<pre class="key"><code>export ${KEY_VARIABLE}=${TEST_TOKEN}</code></pre>
${first === undefined ? '' : example(base, first)}
<p>Machine-readable: <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.</p>
${headersSection(list)}</section>
${list.map((e) => operationSection(doc, base, e, isSub(list, e)))}
${errorsSection(doc)}
${micSection(doc)}
<script nonce="${NONCE_SLOT}">${raw(FOLLOW_LINKS)}</script>`;
}
