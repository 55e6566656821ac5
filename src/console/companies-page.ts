import type { Catalog } from '../catalog/catalog.js';
import { isMicCode } from '../catalog/mic-codes.js';
import { MIC_NAMES } from '../catalog/mic-names.js';
import { type Html, html } from '../web/html.js';
import { consolePage } from './layout.js';
import type { ConsoleSession } from './sessions.js';

/** The longest query searched (the API's limit). */
export const QUERY_MAX_LENGTH = 100;

/** The exchange of a MIC by its name, the code beside it. */
export function exchangeName(micCode: string): string {
  return isMicCode(micCode) ? `${MIC_NAMES[micCode][0]} (${micCode})` : micCode;
}

/** The search answer as a list of links to company pages; also what the page fetches as one types. */
export function searchResults(catalog: Catalog, query: string): Html {
  if (query === '') return html`<p id="result-count" class="muted">Type a name, ticker, ISIN, LEI or CIK.</p>`;
  const found = catalog.search.search(query).flatMap((id) => catalog.record(id) ?? []);
  if (found.length === 0) return html`<p id="result-count">No company matches “${query}”.</p>`;
  const items = found.map(
    (c) => html`<li><a href="/account/companies/${c.company_id}"><strong>${c.company_name}</strong></a>
<span class="muted">${c.ticker} · ${exchangeName(c.mic_code)} · ${c.country ?? 'country unknown'}</span></li>`,
  );
  return html`<p id="result-count" class="muted">${found.length === 1 ? '1 company' : `${found.length} companies`} for “${query}”, most relevant first.</p>
<ul class="results">${items}</ul>`;
}

/**
 * The company search. A plain GET form (works without script); with script, the results follow
 * the typing, fetched from the same server-rendered fragment. Free: the console pays no search.
 */
export function companiesPage(session: ConsoleSession, query: string, results: Html, nonce: string): string {
  return consolePage(
    'Companies',
    session,
    'companies',
    html`<h1>Companies</h1>
<form method="get" action="/account/companies" role="search" class="inline search">
<label for="company-query">Search companies</label>
<input id="company-query" name="query" type="search" value="${query}" maxlength="${QUERY_MAX_LENGTH}" autocomplete="off"
 aria-describedby="company-query-help" aria-controls="results">
<button type="submit">Search</button>
<p id="company-query-help" class="muted help">By name (typos forgiven), ticker, ISIN, LEI or CIK; the same search as the API, free here.</p>
</form>
<div id="results" aria-live="polite">${results}</div>
<script nonce="${nonce}">
(function () {
  var input = document.getElementById('company-query');
  var results = document.getElementById('results');
  var timer = 0, asked = 0;
  input.addEventListener('input', function () {
    clearTimeout(timer);
    timer = setTimeout(function () {
      var query = input.value.trim();
      var n = ++asked;
      fetch('/account/companies/results?query=' + encodeURIComponent(query), { credentials: 'same-origin' })
        .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
        .then(function (text) {
          if (n !== asked) return;
          results.innerHTML = text;
          history.replaceState(null, '', query === '' ? '/account/companies' : '/account/companies?query=' + encodeURIComponent(query));
        }, function () {});
    }, 150);
  });
})();
</script>`,
  );
}
