import { STATUS_CODES } from 'node:http';
import { problemOf } from '../http/problem.js';
import { type Html, html, raw } from '../web/html.js';
import { fieldList, fieldsOf, meaning } from './reference-fields.js';
import { constraint, type Endpoint, type OpenApiDocument, type Parameter, resolve, type Schema } from './reference-schema.js';

/**
 * Headers of every answer, or of every 401 or 429 of every operation: the page explains them once
 * (Response headers), so a response lists only the headers that tell it apart.
 */
const COMMON_HEADERS = new Set(['X-Request-Id', 'RateLimit-Policy', 'RateLimit', 'WWW-Authenticate', 'Retry-After']);

/** The environment variable the examples read the key from (set once, reused by every line). */
export const KEY_VARIABLE = 'CORPDATA_KEY';

/**
 * The request of an example: the required parameters and the first one (the usual way to name a
 * company: its ticker), each with the document's example value, so that request and answer are
 * the document's own pair.
 */
export function exampleUrl(base: string, endpoint: Endpoint): string {
  const params = endpoint.op.parameters ?? [];
  // A history needs its range: `last` is the shortest way to give one.
  const chosen = params.filter((p, i) => p.required === true || (i === 0 && p.in === 'query') || p.name === 'last');
  let path = endpoint.path;
  for (const p of chosen.filter((p) => p.in === 'path'))
    path = path.replace(`{${p.name}}`, encodeURIComponent(String(p.example)));
  const query = chosen
    .filter((p) => p.in === 'query')
    .map((p) => `${p.name}=${encodeURIComponent(String(p.example))}`)
    .join('&');
  return `${base}${path}${query === '' ? '' : `?${query}`}`;
}

/** The request; a POST operation's carries the document's example body. */
function curl(base: string, endpoint: Endpoint): string {
  const call = `curl -H "Authorization: Bearer $${KEY_VARIABLE}" "${exampleUrl(base, endpoint)}"`;
  const body = endpoint.op.requestBody?.content?.['application/json']?.example;
  if (body === undefined) return call;
  return `${call} -H "Content-Type: application/json" -d '${JSON.stringify(body)}'`;
}

/** The 200 answer of the example, as the document's example gives it. */
function exampleResponse(endpoint: Endpoint): Html {
  const ok = endpoint.op.responses?.['200'];
  const [type, media] = Object.entries(ok?.content ?? {})[0] ?? [];
  const body = media?.example === undefined ? '' : JSON.stringify(media.example, null, 2);
  return html`<pre class="example"><code>HTTP/1.1 200 OK
Content-Type: ${type ?? ''}

${body}</code></pre>`;
}

function parameterList(params: Parameter[]): Html {
  if (params.length === 0) return html`<p>No parameters.</p>`;
  return html`<dl class="fields">${params.map(
    (p) =>
      html`<div class="field"><dt><code>${p.name}</code> <span class="muted">${p.in}, ${p.required === true ? 'required' : 'optional'}</span></dt><dd>${p.description || meaning(p.name, p.schema ?? {})} <span class="muted">${constraint(p.schema)}</span></dd></div>`,
  )}</dl>`;
}

/** A status's name: for a refusal, the title its problem details carry (402 is "Insufficient credits"). */
function statusTitle(status: number): string {
  return status >= 400 ? problemOf(status, '', '').title : (STATUS_CODES[status] ?? '');
}

function responseList(endpoint: Endpoint): Html {
  return html`<dl class="fields">${Object.entries(endpoint.op.responses ?? {}).map(([status, r]) => {
    const own = Object.keys(r.headers ?? {}).filter((h) => !COMMON_HEADERS.has(h));
    const label = Number(status) >= 400 ? html`<a href="#error-${status}">${status}</a>` : status;
    return html`<div class="field"><dt>${label} <span class="muted">${statusTitle(Number(status))}</span></dt><dd>${r.description ?? ''}${
      own.length > 0 ? html` <span class="muted">Headers: ${own.join(', ')}.</span>` : ''
    }</dd></div>`;
  })}</dl>`;
}

/** The named schemas an answer may be (the trace endpoint answers for every dataset), or the one it is. */
function variants(doc: OpenApiDocument, schema: Schema | undefined): Array<[string, Schema | undefined]> {
  const refs = schema?.anyOf?.filter((a) => a.$ref !== undefined) ?? [];
  if (refs.length > 1) return refs.map((r) => [resolve(doc, r)?.title ?? '', r]);
  const named = resolve(doc, schema?.type === 'array' ? schema.items : schema)?.title;
  return [[named ?? '', schema]];
}

function fieldSection(doc: OpenApiDocument, endpoint: Endpoint, level: number): Html {
  const schema = endpoint.op.responses?.['200']?.content?.['application/json']?.schema;
  const kinds = variants(doc, schema);
  return html`${kinds.map(
    ([title, s]) =>
      html`${raw(`<h${level}>`)}Fields${kinds.length > 1 ? html` of <code>${title}</code>` : title === '' ? '' : html` (<code>${title}</code>)`}${raw(`</h${level}>`)}${fieldList(fieldsOf(doc, s))}`,
  )}`;
}

/** An example call: the request to copy and the answer it gets. */
export function example(base: string, endpoint: Endpoint): Html {
  return html`<pre class="example call"><code>${curl(base, endpoint)}</code></pre>${exampleResponse(endpoint)}`;
}

/**
 * One operation: what it does, then its example call and its details, folded so that the page
 * stays a few screens long on a phone and the contents lead straight to each operation.
 */
export function operationSection(doc: OpenApiDocument, base: string, endpoint: Endpoint, sub = false): Html {
  const { op } = endpoint;
  if (sub) return subSection(doc, base, endpoint);
  return html`<section class="op" aria-labelledby="${endpoint.id}">
<h2 id="${endpoint.id}"><code>${endpoint.method.toUpperCase()} ${endpoint.path}</code></h2>
<p>${op.summary ?? ''}</p>
<details class="fold"><summary>Example, parameters and fields</summary>
<h3>Example</h3>${example(base, endpoint)}
<p>${op.description ?? ''}</p>
<h3>Parameters</h3>${parameterList(op.parameters ?? [])}
<h3>Responses</h3>${responseList(endpoint)}
${fieldSection(doc, endpoint, 4)}
</details>
</section>`;
}

/**
 * An operation on a path below another's (a dataset's periods, history, batch): one folded line
 * under its parent, its heading the fold's label, so that the page stays short on a phone.
 */
function subSection(doc: OpenApiDocument, base: string, endpoint: Endpoint): Html {
  const { op } = endpoint;
  return html`<section class="op" aria-labelledby="${endpoint.id}">
<details class="sub"><summary><h3 id="${endpoint.id}"><code>${endpoint.method.toUpperCase()} ${endpoint.path}</code></h3></summary>
<p>${op.summary ?? ''}</p>
<h4>Example</h4>${example(base, endpoint)}
<p>${op.description ?? ''}</p>
<h4>Parameters</h4>${parameterList(op.parameters ?? [])}
<h4>Responses</h4>${responseList(endpoint)}
${fieldSection(doc, endpoint, 5)}
</details>
</section>`;
}
