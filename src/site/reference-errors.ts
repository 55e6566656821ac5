import { problemOf } from '../http/problem.js';
import { type Html, html } from '../web/html.js';
import { endpoints, type OpenApiDocument } from './reference-schema.js';

/**
 * When each refusal happens, after its title. The `type` of every problem details answer is
 * `/docs#error-{status}`, so each status here gets that anchor: a program that meets a problem
 * can link its reader here. Short, so the whole list stays in view.
 */
const WHEN: Record<number, string> = {
  400: 'a parameter is missing, unknown, repeated, empty or invalid (param names it), or the request is malformed.',
  401: 'no valid API key: missing, malformed, expired or revoked (WWW-Authenticate: Bearer).',
  402: 'the balance is below the cost of the call (X-Credit-Cost); nothing is charged.',
  403: 'the account lacks the dataset’s subscription (required_subscription); the plain-text body is empty.',
  404: 'unknown company, period or data point, documents not processed yet, or no such route (available_periods, did_you_mean).',
  405: 'any method but the one the path answers, HEAD included: GET, or POST for a batch and resolve (Allow says which).',
  406: 'the request accepts no form of answer the server can send.',
  408: 'the request did not arrive in full within the request timeout.',
  413: 'a request body over the limit: 64 KiB for the API’s POST operations, the console’s forms their own.',
  414: 'the request target, or a path parameter in it, is too long.',
  415: 'a request body of a type the route does not read (the API’s POST operations read application/json).',
  417: 'an Expect header other than 100-continue.',
  429: 'over the rate limit of the account (all its keys together) or client address; retry after Retry-After seconds. Nothing is charged.',
  431: 'the request’s header block is too large.',
  500: 'the server failed; the body gives only the request id, the log has the rest.',
  503: 'the instance is shutting down, or its database connection was lost (a restart, a failover); retry the request after Retry-After seconds, if given. The answer names the request id: a charge in flight may have been made.',
};

/** The statuses of the list: the ones above and any other error the document declares. */
function statuses(doc: OpenApiDocument): number[] {
  const declared = endpoints(doc).flatMap((e) => Object.keys(e.op.responses ?? {}).map(Number));
  return [...new Set([...Object.keys(WHEN).map(Number), ...declared.filter((s) => s >= 400)])].sort((a, b) => a - b);
}

/** The document's description of a status it declares (for one missing from {@link WHEN}). */
function declaredMeaning(doc: OpenApiDocument, status: number): string {
  for (const e of endpoints(doc)) {
    const text = e.op.responses?.[String(status)]?.description;
    if (text !== undefined) return text;
  }
  return '';
}

/** The document's example of one refusal in both forms: plain text and problem details. */
function bothForms(doc: OpenApiDocument): Html {
  for (const e of endpoints(doc)) {
    for (const [status, r] of Object.entries(e.op.responses ?? {})) {
      const text = r.content?.['text/plain']?.example;
      const problem = r.content?.['application/problem+json']?.example;
      if (Number(status) === 404 && text !== undefined && problem !== undefined) {
        return html`<details><summary>Example: a ${status} in both forms</summary>
<pre class="example"><code>HTTP/1.1 ${status} ${problemOf(Number(status), '', '').title}
Content-Type: text/plain; charset=utf-8

${String(text)}</code></pre>
<pre class="example"><code>HTTP/1.1 ${status} ${problemOf(Number(status), '', '').title}
Content-Type: application/problem+json

${JSON.stringify(problem, null, 2)}</code></pre></details>`;
      }
    }
  }
  return html``;
}

export function errorsSection(doc: OpenApiDocument): Html {
  return html`<section aria-labelledby="errors"><h2 id="errors">Errors</h2>
<p>A refusal costs nothing. Its body is one plain-text sentence, or, to a client that sends
<code>Accept: application/problem+json</code> or <code>application/json</code>,
<a href="https://www.rfc-editor.org/rfc/rfc9457">RFC 9457</a> problem details: type (<code>/docs#error-{status}</code>,
this list), title, status, detail (the sentence), instance (the request id), and where they apply param,
required_subscription, available_periods, did_you_mean. The HTTP parser’s refusals (408, 417, 431, a malformed
request’s 400) are always plain text.</p>
${bothForms(doc)}
<dl class="errors">${statuses(doc).map(
    (s) =>
      html`<div id="error-${s}"><dt>${s}</dt><dd><strong>${problemOf(s, '', '').title}</strong>: ${WHEN[s] ?? declaredMeaning(doc, s)}</dd></div>`,
  )}</dl>
</section>`;
}
