import { REVENUE_FIRST_ACCESS_CREDITS, REVENUE_REPEAT_CREDITS } from '../credits/prices.js';
import { DATASET_LABELS } from '../datasets/registry.js';
import { type Html, html } from '../web/html.js';
import type { KeyListing } from './keys-query.js';
import { consolePage, formatNumber, formatTime } from './layout.js';
import type { ConsoleSession } from './sessions.js';
import { usageChart } from './usage-chart.js';
import type { LedgerLine, Purchase } from './usage-query.js';

export interface UsageView {
  balance: number;
  keys: readonly KeyListing[];
  keyId: string | undefined;
  page: number;
  lines: readonly LedgerLine[];
  hasNext: boolean;
  days: ReadonlyArray<{ day: string; credits: number }>;
  purchases: readonly Purchase[];
}

const ENDPOINTS: Record<string, string> = {
  ...Object.fromEntries(DATASET_LABELS),
  // A history's or a batch's lines, one per company-period.
  ...Object.fromEntries(
    [...DATASET_LABELS].flatMap(([name, label]) => [
      [`${name}/history`, `${label} (history)`],
      [`${name}/batch`, `${label} (batch)`],
    ]),
  ),
  'companies/search': 'Company search',
  'companies/list': 'Company list',
  'companies/resolve': 'Company resolution',
};

function describe(l: LedgerLine): string {
  if (l.kind === 'grant') return 'Credits added';
  const what = l.endpoint === null ? 'Call' : (ENDPOINTS[l.endpoint] ?? l.endpoint);
  return l.companyName === null ? what : `${what}: ${l.companyName}, ${l.reportingPeriod ?? ''}`;
}

function pageLink(view: UsageView, page: number, label: string, rel: string): Html {
  const params = new URLSearchParams();
  if (view.keyId !== undefined) params.set('key', view.keyId);
  params.set('page', String(page));
  return html`<a href="/account/usage?${params.toString()}" rel="${rel}">${label}</a>`;
}

function ledgerTable(view: UsageView): Html {
  if (view.lines.length === 0) return html`<p>No entries${view.page > 1 ? ' on this page' : ''}.</p>`;
  const rows = view.lines.map(
    (l) => html`<tr><td>${formatTime(l.at)}</td><td>${describe(l)}</td><td>${l.keyName ?? '—'}</td>
<td class="num">${l.amount > 0 ? `+${formatNumber(l.amount)}` : formatNumber(l.amount)}</td><td class="num">${formatNumber(l.balanceAfter)}</td></tr>`,
  );
  const pager = [
    view.page > 1 ? pageLink(view, view.page - 1, '← Newer', 'prev') : '',
    view.hasNext ? pageLink(view, view.page + 1, 'Older →', 'next') : '',
  ];
  return html`<table><caption class="visually-hidden">Ledger, page ${view.page}</caption>
<thead><tr><th scope="col">When</th><th scope="col">What</th><th scope="col">Key</th><th scope="col" class="num">Credits</th><th scope="col" class="num">Balance after</th></tr></thead>
<tbody>${rows}</tbody></table>
<nav class="pager" aria-label="Ledger pages"><span>Page ${view.page}</span> ${pager}</nav>`;
}

function purchasesTable(list: readonly Purchase[]): Html {
  if (list.length === 0) return html`<p>You have not bought any company-period yet.</p>`;
  return html`<table><caption class="visually-hidden">Purchased company-periods</caption>
<thead><tr><th scope="col">Company</th><th scope="col">Ticker</th><th scope="col">Period</th><th scope="col">Dataset</th><th scope="col">Bought</th></tr></thead>
<tbody>${list.map((p) => html`<tr><td>${p.companyName}</td><td>${p.ticker === null ? '—' : `${p.ticker} (${p.micCode ?? ''})`}</td><td>${p.period}</td><td>${DATASET_LABELS.get(p.dataset) ?? p.dataset}</td><td>${formatTime(p.boughtAt)}</td></tr>`)}</tbody></table>`;
}

/** Balance, per-day spending, the ledger (paged, by key) and the purchased company-periods. */
export function usagePage(session: ConsoleSession, view: UsageView): string {
  const options = view.keys.map((k) =>
    k.keyId === view.keyId
      ? html`<option value="${k.keyId}" selected>${k.name} (…${k.displayPrefix}…)</option>`
      : html`<option value="${k.keyId}">${k.name} (…${k.displayPrefix}…)</option>`,
  );
  return consolePage(
    'Balance and usage',
    session,
    'usage',
    html`<h1>Balance and usage</h1>
<p class="balance">Balance: <strong id="balance">${formatNumber(view.balance)}</strong> credits</p>
<form method="get" action="/account/usage" class="inline filter">
<label for="key-filter">Show calls made with</label>
<select id="key-filter" name="key"><option value="">every key</option>${options}</select>
<button type="submit" class="secondary">Show</button>
</form>
<h2>Last 30 days</h2>
${usageChart(view.days)}
<h2>Ledger</h2>
${ledgerTable(view)}
<h2>Purchased company-periods</h2>
<p>A revenues call for a company-period you have bought costs ${REVENUE_REPEAT_CREDITS} credit instead of ${REVENUE_FIRST_ACCESS_CREDITS};
its values are also shown on the data points' traceability pages.</p>
${purchasesTable(view.purchases)}`,
  );
}
