import type { Dataset } from '../datasets/dataset.js';
import { formatNumber, type Html, html } from '../web/html.js';
import type { BoughtPeriod } from './bought-data.js';
import { consolePage, formatTime } from './layout.js';
import type { ConsoleSession } from './sessions.js';

function figuresCell(b: BoughtPeriod): Html {
  if (b.figures.length === 0) return html`<span class="muted">no figure</span>`;
  return html`<ul class="plain">${b.figures.map(
    (f) =>
      html`<li>${f.series === b.datasetLabel ? '' : `${f.series}: `}<a href="${f.tracePath}">${formatNumber(f.value)} ${f.unit}</a>${f.disclosure === 'restated' ? html` <span class="muted">(restated ${f.disclosedIn ?? ''})</span>` : ''}</li>`,
  )}</ul>`;
}

function datasetTable(label: string, rows: readonly BoughtPeriod[]): Html {
  return html`<table class="cards"><caption>${label}: ${rows.length === 1 ? '1 company-period' : `${rows.length} company-periods`}</caption>
<thead><tr><th scope="col">Company</th><th scope="col">Period</th><th scope="col">Figures (each to its trace page)</th><th scope="col">Bought</th></tr></thead>
<tbody>${rows.map(
    (
      b,
    ) => html`<tr><td data-label="Company"><a href="/account/companies/${b.purchase.companyId}">${b.purchase.companyName}</a>${b.purchase.ticker === null ? '' : html` <span class="muted">${b.purchase.ticker}</span>`}</td>
<td data-label="Period">${b.purchase.period}</td><td data-label="Figures">${figuresCell(b)}</td><td data-label="Bought">${formatTime(b.purchase.boughtAt)}</td></tr>`,
  )}</tbody></table>`;
}

/** Every company-period the account bought, by dataset, with its figures and free downloads. */
export function dataPage(datasets: readonly Dataset[], session: ConsoleSession, bought: readonly BoughtPeriod[]): string {
  const sections = datasets.flatMap((d) => {
    const rows = bought.filter((b) => b.dataset === d.name);
    if (rows.length === 0) return [];
    return [
      html`<section aria-labelledby="h-${d.name}"><h2 id="h-${d.name}">${d.label}</h2>
<p>Download: <a href="/account/data.csv?dataset=${d.name}" download>CSV<span class="visually-hidden"> of ${d.label}</span></a> ·
<a href="/account/data.json?dataset=${d.name}" download>JSON<span class="visually-hidden"> of ${d.label}</span></a></p>
${datasetTable(d.label, rows)}</section>`,
    ];
  });
  return consolePage(
    'My data',
    session,
    'data',
    html`<h1>My data</h1>
<p>Every company-period this account has bought, by dataset. Downloads are free: the figures are paid for.</p>
${
  bought.length === 0
    ? html`<p>Nothing bought yet. <a href="/account/companies">Find a company</a> to see what it has and buy it.</p>`
    : html`<p>Everything: <a href="/account/data.csv" download>CSV</a> · <a href="/account/data.json" download>JSON</a></p>${sections}`
}`,
  );
}
