import type { Dataset } from '../datasets/dataset.js';
import { API_YEARS } from '../datasets/period-data.js';
import type { SourceStatus } from '../freshness/source-status.js';
import { type Html, html, page } from '../web/html.js';
import type { Coverage } from './coverage-query.js';

const NUMBER = new Intl.NumberFormat('en-US');
const n = (v: number) => NUMBER.format(v);
const plural = (v: number, noun: string) => `${n(v)} ${noun}${v === 1 ? '' : 's'}`;

function datasetRows(datasets: readonly Dataset[], coverage: Coverage): Html {
  return html`${datasets.map((d) => {
    const c = coverage.datasets.get(d.name);
    const years =
      c === undefined || c.firstYear === null
        ? '—'
        : c.firstYear === c.lastYear
          ? `${c.firstYear}`
          : `${c.firstYear}–${c.lastYear}`;
    return html`<tr><td data-label="Dataset"><code>${d.route.path}</code><br>${d.label}</td>
<td data-label="Companies" class="num">${c === undefined ? 'derived' : n(c.companies)}</td><td data-label="Years">${c === undefined ? 'where both exist' : years}</td>
<td data-label="Figures" class="num">${c === undefined ? '—' : n(c.points)}</td><td data-label="Subscription"><code>${d.subscription}</code></td></tr>`;
  })}`;
}

/** A lag in the largest units that say it: `45 s`, `12 min`, `3 h 5 min`, `412 days`. */
export function lagText(seconds: number | null): string {
  if (seconds === null) return '—';
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 172_800) return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
  return `${n(Math.floor(seconds / 86_400))} days`;
}

function freshnessRows(sources: readonly SourceStatus[]): Html {
  return html`${sources.map(
    (s) => html`<tr><td data-label="Source"><code>${s.source}</code></td>
<td data-label="Last successful poll">${s.last_success_at ?? 'never'}</td>
<td data-label="Last error">${s.last_error === null ? 'none' : `${s.last_error.at}: ${s.last_error.message}`}</td>
<td data-label="Served in 24 h" class="num">${n(s.served_24h.documents)}</td>
<td data-label="Median lag">${lagText(s.served_24h.median_lag_seconds)}</td><td data-label="Worst lag">${lagText(s.served_24h.worst_lag_seconds)}</td></tr>`,
  )}`;
}

/** The public home page: what the service covers, a first call, and the ways in (console, reference). */
export function homePage(
  datasets: readonly Dataset[],
  coverage: Coverage,
  sources: readonly SourceStatus[],
  publicUrl: string,
  testToken: string,
): string {
  const body = html`<h1>Corporate data, traceable to the source</h1>
<p>corpdata serves the revenue of listed companies standardized to USD (with the value and currency as reported) and the
greenhouse-gas emissions they report, every figure linked to the document it comes from; and it finds companies by name,
ticker, ISIN, LEI or CIK.</p>
<h2>Coverage</h2>
<ul class="stats" aria-label="Coverage in numbers">
<li><strong>${n(coverage.companies)}</strong> companies</li>
<li><strong>${n(coverage.listings)}</strong> listings on ${n(coverage.exchanges)} exchanges</li>
<li><strong>${n(coverage.countries)}</strong> ${coverage.countries === 1 ? 'country' : 'countries'}</li>
<li><strong>${n(coverage.secFilings + coverage.otherDocuments)}</strong> source documents</li>
</ul>
<table class="cards"><caption>Datasets</caption>
<thead><tr><th scope="col">Dataset</th><th scope="col" class="num">Companies</th><th scope="col">Years</th><th scope="col" class="num">Figures</th><th scope="col">Subscription</th></tr></thead>
<tbody>${datasetRows(datasets, coverage)}</tbody></table>
<p id="years">Every year listed is answered by the API: a dataset's single call (<code>?reporting_period=</code>) takes the years
${API_YEARS.singleCallFirst} to ${API_YEARS.last} (or -1 to -6, the most recent first); every year from ${API_YEARS.first}, the earlier
ones included, comes from its <code>/history?from=</code> call (or its <code>/batch</code>), billed the same way.</p>
<p>Sources: ${plural(coverage.secFilings, 'SEC filing')} (XBRL, read as filed) and ${plural(coverage.otherDocuments, 'other document')}
(annual and sustainability reports, open data sets transcribing them) from ${plural(coverage.sourceSites, 'site')}; exchange rates from
the IMF, the Federal Reserve and the ECB.</p>
<h2>Freshness</h2>
<p>How current the data is: each source's last poll, and the documents whose figures began to be served in the last 24 hours, with
their lag from publication (the document's date) to served. Programs read it from <a href="/api/v1/status"><code>/api/v1/status</code></a>.</p>
<table class="cards"><caption>Sources</caption>
<thead><tr><th scope="col">Source</th><th scope="col">Last successful poll</th><th scope="col">Last error</th><th scope="col" class="num">Served in 24 h</th><th scope="col">Median lag</th><th scope="col">Worst lag</th></tr></thead>
<tbody>${freshnessRows(sources)}</tbody></table>
<h2>Explore it</h2>
<p>Sign in to your <a href="/account">account</a> to search companies, see which periods each dataset has, buy them, and look at
the figures as charts and tables, each linked to its source. Programs use the <a href="/docs">API reference</a>
(or the <a href="/api/v1/openapi.json">OpenAPI document</a>).</p>
<h2>First call</h2>
<p>Try the API with the public test token (free, mock data):</p>
<pre tabindex="0" role="region" aria-label="Example call with the test token"><code>curl -H "Authorization: Bearer ${testToken}" \\
  "${publicUrl}/api/v1/revenues?ticker=AAPL&amp;reporting_period=-1"</code></pre>
<p>For real data, use an API key from your <a href="/account">account</a>. Every call is billed in credits:
25 for the first access to a company-period, 1 for a repeat or a period without data, 1 for a search, 100 for the company list.</p>`;
  return page('Corporate data API', body);
}
