import { TEST_TOKEN } from '../auth/test-token.js';
import { type Html, html } from './html.js';

interface Schema {
  type?: string | string[];
  description?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  format?: string;
  enum?: unknown[];
  anyOf?: Schema[];
  const?: unknown;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
}

interface Response {
  description?: string;
  headers?: Record<string, { schema?: Schema; description?: string }>;
  content?: Record<string, { schema?: Schema }>;
}

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  responses?: Record<string, Response>;
}

export interface OpenApiDocument {
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
}

function constraint(s: Schema | undefined): string {
  if (s === undefined) return '';
  if (s.enum !== undefined && s.enum.length > 1) return `one of: ${s.enum.map(String).join(', ')}`;
  if (s.anyOf !== undefined) {
    const consts = s.anyOf.flatMap((a) => (a.const !== undefined ? [a.const] : a.enum?.length === 1 ? a.enum : [])).map(String);
    if (consts.length === s.anyOf.length) return `one of: ${consts.join(', ')}`;
    return s.anyOf.map(constraint).join(' or ');
  }
  const parts: string[] = [];
  if (s.type !== undefined) parts.push(Array.isArray(s.type) ? s.type.join(' | ') : s.type);
  if (s.format !== undefined) parts.push(s.format);
  if (s.minLength !== undefined || s.maxLength !== undefined) parts.push(`length ${s.minLength ?? 0}..${s.maxLength ?? '∞'}`);
  if (s.minimum !== undefined || s.maximum !== undefined) parts.push(`${s.minimum ?? '−∞'}..${s.maximum ?? '∞'}`);
  if (s.pattern !== undefined) parts.push(`pattern ${s.pattern}`);
  return parts.join(', ');
}

function fields(schema: Schema | undefined): Html {
  const item = schema?.type === 'array' ? schema.items : schema;
  if (item?.properties === undefined) return html``;
  return html`<table><thead><tr><th>Field</th><th>Type</th><th>Meaning</th></tr></thead><tbody>
${Object.entries(item.properties).map(([name, s]) => html`<tr><td><code>${name}</code>${item.required?.includes(name) ? '' : ' (optional)'}</td><td>${constraint(s)}</td><td>${s.description ?? ''}</td></tr>`)}
</tbody></table>`;
}

function operation(path: string, method: string, op: Operation): Html {
  const params = op.parameters ?? [];
  return html`<section><h2 id="${op.operationId ?? path}"><code>${method.toUpperCase()} ${path}</code></h2>
<p><strong>${op.summary ?? ''}</strong></p><p>${op.description ?? ''}</p>
${
  params.length === 0
    ? html`<p class="muted">No parameters.</p>`
    : html`<table><thead><tr><th>Parameter</th><th>Required</th><th>Rule</th></tr></thead><tbody>
${params.map((p) => html`<tr><td><code>${p.name}</code></td><td>${p.required === true ? 'yes' : 'no'}</td><td>${p.description ?? ''}<br><span class="muted">${constraint(p.schema)}</span></td></tr>`)}
</tbody></table>`
}
<h3>Responses</h3><table><thead><tr><th>Status</th><th>Meaning</th><th>Headers</th></tr></thead><tbody>
${Object.entries(op.responses ?? {}).map(([status, r]) => html`<tr><td>${status}</td><td>${r.description ?? ''}</td><td>${Object.keys(r.headers ?? {}).join(', ')}</td></tr>`)}
</tbody></table>
${fields(op.responses?.['200']?.content?.['application/json']?.schema)}
</section>`;
}

/** Renders the API reference page from the OpenAPI document, so the two never disagree. */
export function renderReference(doc: OpenApiDocument): Html {
  const ops = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([m, op]) => operation(path, m, op)),
  );
  return html`<h1>${doc.info.title} <span class="muted">v${doc.info.version}</span></h1>
<p>${(doc.info.description ?? '').split(' Test mode:')[0]}</p>
<p>Test mode: send this fixed, public token for free, deterministic mock data:</p>
<pre class="key"><code>Authorization: Bearer ${TEST_TOKEN}</code></pre>
<p>Authentication: every endpoint needs <code>Authorization: Bearer &lt;API key&gt;</code>. Errors are plain text and cost nothing.
The machine-readable document is at <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.</p>
${ops}`;
}
