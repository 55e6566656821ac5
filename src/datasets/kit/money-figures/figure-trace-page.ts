import { disclosureYear } from '../../../db/disclosure.js';
import type { SourceTraceField } from '../../../ingest/filings/source.js';
import { SUB_UNITS } from '../../../money/currencies.js';
import { formatDecimal, type Html, html, page } from '../../../web/html.js';
import { buyOffer } from '../buy-offer.js';
import { notServedNotice, STATUS_TEXT } from '../document-status.js';
import { publishedText, signedOutNotice, sourceLink } from '../trace-notice.js';
import type { TraceDocument, TraceFacts, TraceFiling, TraceValues } from './figure-facts.js';
import type { MoneyFigureSpec } from './money-figure-spec.js';

/** Who is looking (decided by `accessOf`): values appear only for `bought`. */
export type TraceAccess =
  | { kind: 'signed-out' }
  | { kind: 'not-bought' }
  | { kind: 'not-served' }
  | { kind: 'bought'; values: ReadonlyMap<string, TraceValues> };

function fxText(v: TraceValues): string {
  if (v.originalCcy === 'USD') return 'none: the figure is in USD';
  const sub = SUB_UNITS[v.originalCcy];
  const unit = sub === undefined ? v.originalCcy : sub.parent;
  const note = sub === undefined ? '' : ` (${v.originalCcy} is 1/${sub.divisor} ${sub.parent})`;
  return `${v.fxRate} USD per ${unit}${note}, yearly average`;
}

/** Figures as the page shows them: every decimal place a per-share value has (formatDecimal's are a superset). */
const figureNumber = formatDecimal;

function valueRows(spec: MoneyFigureSpec, v: TraceValues): Html {
  const per = spec.perShare === true ? '/share' : '';
  return html`<dt>Value</dt><dd class="value"><strong>${figureNumber(v.valueUsd)} USD${per}</strong></dd>
<dt>Original value</dt><dd>${v.originalValue === null ? 'not reported (USD figure only)' : `${figureNumber(v.originalValue)} ${v.originalCcy}${per}`}</dd>
<dt>FX rate</dt><dd>${fxText(v)}</dd><dt>FX rate source</dt><dd>${v.fxSource}</dd>`;
}

function accessNotice(spec: MoneyFigureSpec, path: string, facts: TraceFacts, access: TraceAccess, publicUrl: string): Html {
  const what = `${facts.companyName}, ${facts.period}`;
  if (access.kind === 'not-served') return notServedNotice(facts.document.status);
  if (access.kind === 'signed-out') {
    return signedOutNotice(`The values of this data point are shown to accounts that have bought ${what}.`, facts.pointId);
  }
  return buyOffer({
    dataset: spec.dataset,
    label: spec.wording.offerLabel,
    companyId: facts.companyId,
    companyName: facts.companyName,
    period: facts.period,
    price: spec.prices.firstAccess,
    repeatPrice: spec.prices.repeat,
    call: `${publicUrl}${path}?company_id=${facts.companyId}&reporting_period=${facts.period}`,
  });
}

/** The year of disclosure, saying how it was reckoned when the date is unknown. */
const disclosedText = (d: TraceDocument): string =>
  d.publishedOn === ''
    ? `${disclosureYear(d.publishedOn, d.reportingPeriod)} (publication date unknown: the year after the period the document covers)`
    : d.publishedOn.slice(0, 4);

function relatedTable(spec: MoneyFigureSpec, facts: TraceFacts, access: TraceAccess): Html {
  if (facts.related.length === 0) return html`<p>The API serves no data point for this company-period yet.</p>`;
  const rows = facts.related.map((r) => {
    const v = access.kind === 'bought' ? access.values.get(r.pointId) : undefined;
    const here = r.pointId === facts.pointId;
    return html`<tr${here ? html` aria-current="page"` : ''}><td data-label="Disclosed">${disclosureYear(r.document.publishedOn, r.document.reportingPeriod)}</td><td data-label="Document">${r.document.title}</td>
<td data-label="Published">${r.document.publishedOn === '' ? 'date unknown' : r.document.publishedOn}</td><td data-label="Value" class="num">${v === undefined ? '—' : `${figureNumber(v.valueUsd)} USD${spec.perShare === true ? '/share' : ''}`}</td>
<td data-label="Trace">${here ? html`<strong>this page</strong>` : html`<a href="/trace/${r.pointId}">data point</a>`}</td></tr>`;
  });
  return html`<table class="cards"><caption class="visually-hidden">Data points of ${facts.companyName}, ${facts.period}</caption>
<thead><tr><th scope="col">Disclosed</th><th scope="col">Document</th><th scope="col">Published</th><th scope="col" class="num">Value</th><th scope="col">Trace</th></tr></thead>
<tbody>${rows}</tbody></table>`;
}

/**
 * The other concepts of the figure the filing tagged for the period, so a reader sees why this one
 * was chosen, and those the statements' arithmetic passed over with the lines they were held
 * against (design §18.4); values only for a buyer (they are figures of the company-period).
 */
function candidatesSection(spec: MoneyFigureSpec, f: TraceFiling, shown: boolean): Html {
  if (f.candidates.length === 0) {
    return html`<p>The filing tagged no other ${spec.wording.concept} for this period.</p>`;
  }
  const guarded = f.candidates.some((c) => c.passedOver !== null);
  const rows = f.candidates.map(
    (c) =>
      html`<tr><td><code>${c.concept}</code></td><td class="num">${shown ? figureNumber(c.value) : '—'}</td><td>${
        c.passedOver === null ? 'later in the order of preference' : `passed over: ${c.passedOver}`
      }</td></tr>`,
  );
  const bounds = f.bounds.map(
    (b) => html`<tr><td><code>${b.concept}</code></td><td class="num">${shown ? figureNumber(b.value) : '—'}</td></tr>`,
  );
  return html`<h3>Other ${spec.wording.concept}s in this filing for the period</h3>
<p class="muted">${
    guarded
      ? html`Not chosen: <code>${f.concept}</code> is the first in the order of preference that the statements' arithmetic does not pass over (a candidate that is zero, or under the filing's own cost of revenue or operating income, while the filing tags a larger one, is a part of the total, not the total).`
      : html`Not chosen: <code>${f.concept}</code> comes first in the order of preference.`
  }</p>
<table><thead><tr><th scope="col">Concept</th><th scope="col" class="num">Value as filed</th><th scope="col">Why not chosen</th></tr></thead><tbody>${rows}</tbody></table>${
    bounds.length === 0
      ? ''
      : html`
<h3>The filing's lines the candidates were held against</h3>
<table><thead><tr><th scope="col">Concept</th><th scope="col" class="num">Value as filed</th></tr></thead><tbody>${bounds}</tbody></table>`
  }`;
}

/** Later filings that gave the figure again, rounded: the same figure, confirmed (design §10.6). */
function confirmedSection(f: TraceFiling, shown: boolean): Html {
  if (f.confirmedBy.length === 0) return html``;
  const items = f.confirmedBy.map(
    (c) =>
      html`<li>${c.document.title} (<span class="key">${sourceLink(c.document.sourceUrl)}</span>)${shown ? `: ${figureNumber(c.value)}` : ''}</li>`,
  );
  return html`<h3>Confirmed by later filings</h3>
<p>These later filings repeat this figure rounded to their own precision; the more precise figure stays.</p>
<ul>${items}</ul>`;
}

/** The lines a figure's source adds (design §15): its own fields, in its own words. */
function sourceRows(fields: readonly SourceTraceField[]): Html[] {
  return fields.map(
    (s) =>
      html`<dt>${s.label}</dt><dd${s.kind === 'link' ? html` class="key"` : ''}>${
        s.kind === 'code'
          ? html`<code>${s.value}</code>`
          : s.kind === 'link'
            ? html`<a href="${s.value}" rel="noopener noreferrer">${s.value}</a>`
            : s.value
      }</dd>`,
  );
}

/** How a filed figure was chosen: shown to anyone, since none of it is the figure itself. */
function filingSection(spec: MoneyFigureSpec, f: TraceFiling, d: TraceFacts['document'], shown: boolean): Html {
  const period = f.periodStart === null ? `four quarters ending ${f.periodEnd}` : `${f.periodStart} to ${f.periodEnd}`;
  // A source without SEC's form and accession (ESEF) says what identifies its filing in its own fields.
  const sec =
    f.form === null && f.accession === null
      ? html``
      : html`<dt>Form</dt><dd>${f.form ?? '—'}</dd>
<dt>Accession number</dt><dd>${f.accession === null ? '—' : html`<code>${f.accession}</code>`}</dd>`;
  return html`<h2>Filing</h2>
<dl class="facts"><dt>Concept</dt><dd><code>${f.concept}</code></dd>${sec}<dt>Filed</dt><dd>${publishedText(f.filed)}</dd>
<dt>Period</dt><dd>${period}</dd>${sourceRows(f.sourceFields)}<dt>${f.accession === null ? 'Source' : 'Filing index'}</dt><dd class="key">${sourceLink(d.sourceUrl)}</dd>${
    f.mainDocumentUrl === null
      ? ''
      : html`<dt>Main document</dt><dd class="key"><a href="${f.mainDocumentUrl}" rel="noopener noreferrer">${f.mainDocumentUrl}</a></dd>`
  }</dl>
<p class="muted">${spec.wording.conceptRule}</p>
${candidatesSection(spec, f, shown)}
${confirmedSection(f, shown)}`;
}

/** The traceability page of one data point (the target of its `traceability_source_url`). */
export function figureTracePage(
  spec: MoneyFigureSpec,
  path: string,
  facts: TraceFacts,
  access: TraceAccess,
  publicUrl: string,
): string {
  const values = access.kind === 'bought' ? access.values.get(facts.pointId) : undefined;
  const listings = facts.listings.map(
    (l) =>
      html`<li>${l.ticker} on ${l.micCode}${l.isin === null ? '' : html`, ISIN <code>${l.isin}</code>`}${l.primary ? ' (primary listing)' : ''}</li>`,
  );
  const d = facts.document;
  return page(
    `${spec.metric} · ${facts.companyName} · ${facts.period}`,
    html`<p class="muted">Traceability of a data point</p>
<h1>${spec.metric} of ${facts.companyName}, ${facts.period}</h1>
${access.kind === 'bought' ? html`<p class="muted">Values shown because your account bought ${facts.companyName}, ${facts.period}.</p>` : accessNotice(spec, path, facts, access, publicUrl)}
<h2>Data point</h2>
<dl class="facts"><dt>Metric</dt><dd>${spec.metric}</dd><dt>Reporting period</dt><dd>${facts.period}</dd>
<dt>Year of disclosure</dt><dd>${disclosedText(d)}</dd><dt>Original currency</dt><dd>${facts.originalCcy}</dd>
${values === undefined ? '' : valueRows(spec, values)}<dt>Data point id</dt><dd><code>${facts.pointId}</code></dd></dl>
<h2>Company</h2>
<dl class="facts"><dt>Name</dt><dd>${facts.companyName}</dd><dt>Country</dt><dd>${facts.country ?? '—'}</dd>
<dt>LEI</dt><dd>${facts.lei === null ? '—' : html`<code>${facts.lei}</code>`}</dd>
<dt>Listings</dt><dd><ul class="plain">${listings}</ul></dd><dt>Company id</dt><dd><code>${facts.companyId}</code></dd></dl>
<h2>Source document</h2>
<dl class="facts"><dt>Title</dt><dd>${d.title}</dd><dt>Source</dt><dd class="key">${sourceLink(d.sourceUrl)}</dd>
<dt>Published</dt><dd>${publishedText(d.publishedOn)}</dd><dt>Status</dt><dd>${STATUS_TEXT[d.status]}</dd><dt>Document id</dt><dd><code>${d.documentId}</code></dd></dl>
${facts.filing === null ? '' : filingSection(spec, facts.filing, d, values !== undefined)}
<h2>All data points of ${facts.companyName} for ${facts.period}</h2>
<p>The figure as first reported and every restatement, each from its own document.</p>
${relatedTable(spec, facts, access)}`,
  );
}
