import type { Dataset } from '../datasets/dataset.js';
import { datasetNamed, subscriptionsOf } from '../datasets/dataset-list.js';
import { formatNumber, type Html, html } from '../web/html.js';
import type { BoughtPeriod } from './bought-data.js';
import type { KeyListing } from './keys-query.js';
import { consolePage, formatTime } from './layout.js';
import type { ConsoleSession } from './sessions.js';
import { usageChart } from './usage-chart.js';
import type { LedgerLine } from './usage-query.js';

export interface UsageView {
  /** The datasets the app serves: their ledger lines, subscriptions and prices. */
  datasets: readonly Dataset[];
  balance: number;
  subscriptions: ReadonlySet<string>;
  keys: readonly KeyListing[];
  keyId: string | undefined;
  page: number;
  lines: readonly LedgerLine[];
  hasNext: boolean;
  days: ReadonlyArray<{ day: string; credits: number }>;
  purchases: readonly BoughtPeriod[];
}

const OTHER_ENDPOINTS: Record<string, string> = {
  'companies/search': 'Company search',
  'companies/list': 'Company list',
  'companies/resolve': 'Company resolution',
};

/**
 * What a ledger line was, in words. A dataset's line names its company-period and says which of
 * the three charges it was: the first access that bought it, a repeat of a bought one, or a
 * period without figures (the API answered 204, no data; nothing was bought).
 */
export function describe(l: LedgerLine, datasets: readonly Dataset[]): string {
  if (l.kind === 'grant') return 'Credits added';
  // The operator's reason is kept for the operator's records (`credits adjust`, design §6), not shown.
  if (l.kind === 'adjustment') return 'Credits adjusted by the operator';
  // A history's or a batch's lines, one per company-period, name the dataset with a suffix.
  const [name, via] = (l.endpoint ?? '').split('/');
  const dataset = datasetNamed(datasets, name);
  if (dataset === undefined) {
    if (l.endpoint === null) return 'Call';
    const what = OTHER_ENDPOINTS[l.endpoint] ?? l.endpoint;
    // Lines written before the ledger kept a search's query have none.
    return l.detail === null ? what : `${what}: “${l.detail}”`;
  }
  const label = via === undefined ? dataset.label : `${dataset.label} (${via})`;
  if (l.companyName === null) return label;
  const what = `${label}: ${l.companyName}, ${l.reportingPeriod ?? ''}`;
  if (!l.bought) return `${what}: no data (answered 204, nothing bought)`;
  return -l.amount === dataset.prices.firstAccess ? `${what}: bought` : `${what}: repeat`;
}

function pageLink(view: UsageView, page: number, label: string, rel: string): Html {
  const params = new URLSearchParams();
  if (view.keyId !== undefined) params.set('key', view.keyId);
  params.set('page', String(page));
  return html`<a href="/account/usage?${params.toString()}" rel="${rel}">${label}</a>`;
}

function keyName(l: LedgerLine): string {
  if (l.keyName !== null) return l.keyName;
  return l.kind === 'charge' ? 'console' : '—';
}

function ledgerTable(view: UsageView): Html {
  if (view.lines.length === 0) return html`<p>No entries${view.page > 1 ? ' on this page' : ''}.</p>`;
  const rows = view.lines.map(
    (
      l,
    ) => html`<tr><td data-label="When">${formatTime(l.at)}</td><td data-label="What">${describe(l, view.datasets)}</td><td data-label="Key">${keyName(l)}</td>
<td data-label="Credits" class="num">${l.amount > 0 ? `+${formatNumber(l.amount)}` : formatNumber(l.amount)}</td><td data-label="Balance after" class="num">${formatNumber(l.balanceAfter)}</td></tr>`,
  );
  const pager = [
    view.page > 1 ? pageLink(view, view.page - 1, '← Newer', 'prev') : '',
    view.hasNext ? pageLink(view, view.page + 1, 'Older →', 'next') : '',
  ];
  return html`<table class="cards"><caption class="visually-hidden">Ledger, page ${view.page}</caption>
<thead><tr><th scope="col">When</th><th scope="col">What</th><th scope="col">Key</th><th scope="col" class="num">Credits</th><th scope="col" class="num">Balance after</th></tr></thead>
<tbody>${rows}</tbody></table>
<nav class="pager" aria-label="Ledger pages"><span>Page ${view.page}</span> ${pager}</nav>`;
}

function purchasesTable(list: readonly BoughtPeriod[]): Html {
  if (list.length === 0)
    return html`<p>You have not bought any company-period yet. <a href="/account/companies">Find a company</a>.</p>`;
  const rows = list.map((b) => {
    const p = b.purchase;
    const figures =
      b.figures.length === 0
        ? html`<span class="muted">no figure</span>`
        : html`<ul class="plain">${b.figures.map((f) => html`<li><a href="${f.tracePath}">${f.series === b.datasetLabel ? '' : `${f.series}: `}${formatNumber(f.value)} ${f.unit}</a>${f.disclosure === 'first' ? '' : html` <span class="muted">(${f.disclosure === 'restated' ? 'restated' : 'again'} ${f.disclosedIn ?? ''})</span>`}</li>`)}</ul>`;
    return html`<tr><td data-label="Company"><a href="/account/companies/${p.companyId}">${p.companyName}</a></td><td data-label="Ticker">${p.ticker === null ? '—' : `${p.ticker} (${p.micCode ?? ''})`}</td><td data-label="Period">${p.period}</td><td data-label="Dataset">${b.datasetLabel}</td>
<td data-label="Figures">${figures}</td><td data-label="Bought">${formatTime(p.boughtAt)}</td></tr>`;
  });
  return html`<table class="cards"><caption class="visually-hidden">Purchased company-periods</caption>
<thead><tr><th scope="col">Company</th><th scope="col">Ticker</th><th scope="col">Period</th><th scope="col">Dataset</th><th scope="col">Figures (each to its trace page)</th><th scope="col">Bought</th></tr></thead>
<tbody>${rows}</tbody></table>`;
}

/** The account's subscriptions, each with the datasets it opens. */
function subscriptionList(datasets: readonly Dataset[], held: ReadonlySet<string>): Html {
  const items = subscriptionsOf(datasets).map((s) => {
    const labels = datasets.filter((d) => d.subscription === s).map((d) => d.label);
    return html`<li><code>${s}</code> (${labels.join(', ')}): ${held.has(s) ? html`<strong>held</strong>` : 'not held'}</li>`;
  });
  return html`<ul class="plain" id="subscriptions">${items}</ul>`;
}

/** Balance, subscriptions, per-day spending, the ledger (paged, by key) and the purchased company-periods. */
export function usagePage(session: ConsoleSession, view: UsageView): string {
  const options = view.keys.map((k) =>
    k.keyId === view.keyId
      ? html`<option value="${k.keyId}" selected>${k.name} (…${k.displayPrefix}…)</option>`
      : html`<option value="${k.keyId}">${k.name} (…${k.displayPrefix}…)</option>`,
  );
  const repeat = Math.min(...view.datasets.map((d) => d.prices.repeat));
  const first = Math.max(...view.datasets.map((d) => d.prices.firstAccess));
  return consolePage(
    'Balance and usage',
    session,
    'usage',
    html`<h1>Balance and usage</h1>
<p class="balance">Balance: <strong id="balance">${formatNumber(view.balance)}</strong> credits</p>
<h2>Subscriptions</h2>
<p>A dataset is sold only to an account holding its subscription; your operator adds them.</p>
${subscriptionList(view.datasets, view.subscriptions)}
<form method="get" action="/account/usage" class="inline filter">
<label for="key-filter">Show calls made with</label>
<select id="key-filter" name="key"><option value="">every key</option>${options}</select>
<button type="submit" class="secondary">Show</button>
</form>
<h2>Last 30 days</h2>
${usageChart(view.days)}
<h2>Ledger</h2>
<p class="muted">Purchases made in the console are charged exactly as the API charges them; their key is “console”.</p>
${ledgerTable(view)}
<h2>Purchased company-periods</h2>
<p>A call for a company-period you have bought costs ${repeat} credit instead of ${first};
its values are also shown on the data points' traceability pages. Download them all from <a href="/account/data">My data</a>.</p>
${purchasesTable(view.purchases)}`,
  );
}
