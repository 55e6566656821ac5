import type { Company } from '../catalog/catalog.js';
import type { Dataset } from '../datasets/dataset.js';
import { API_YEARS } from '../datasets/period-data.js';
import { formatNumber, type Html, html } from '../web/html.js';
import { exchangeName } from './companies-page.js';
import type { Coverage } from './explorer-query.js';
import { figureChart } from './figure-chart.js';
import { figureTable } from './figure-table.js';
import { latestFigures } from './figures.js';
import { consolePage, notice } from './layout.js';
import type { ConsoleSession } from './sessions.js';
import { chosenPeriod, statementCoverage, statementSection } from './statement-table.js';

export interface CompanyView {
  company: Company;
  balance: number;
  coverage: readonly Coverage[];
  /** The period of the statement table asked for (the most recent when absent or not covered). */
  statementPeriod?: number;
  /** A notice after a purchase or a refusal; a purchase's names the dataset (its `name`) it bought. */
  message?: { kind: 'info' | 'error'; text: string; dataset?: string };
}

function identifiers(c: Company): Html {
  const listings = c.listings.map(
    (l) =>
      html`<li>${l.ticker} on ${exchangeName(l.micCode)}${l.isin === null ? '' : html`, ISIN <code>${l.isin}</code>`}${l.isPrimary ? ' (primary listing)' : ''}</li>`,
  );
  return html`<dl class="facts"><dt>Listings</dt><dd>${listings.length === 0 ? '—' : html`<ul class="plain">${listings}</ul>`}</dd>
<dt>Country</dt><dd>${c.country ?? '—'}</dd>
<dt>LEI</dt><dd>${c.lei === null ? '—' : html`<code>${c.lei}</code>`}</dd>
<dt>CIK</dt><dd>${c.cik === null ? '—' : html`<code>${c.cik}</code>`}</dd>
<dt>Company id</dt><dd><code class="key">${c.companyId}</code></dd></dl>`;
}

/** The periods of one dataset: bought, for sale (a checkbox), or without a figure; and the buy form. */
function periodsForm(companyId: string, cov: Coverage): Html {
  const { dataset } = cov;
  const id = dataset.name;
  if (cov.periods.length === 0) return html`<p>No period of ${dataset.label} for this company yet.</p>`;
  const forSale = cov.periods.filter((p) => !cov.bought.has(p) && !cov.empty.has(p));
  const items = cov.periods.map((p) => {
    if (cov.bought.has(p)) return html`<li><span class="period">${p}</span> <span class="badge active">bought</span></li>`;
    if (cov.empty.has(p)) return html`<li><span class="period">${p}</span> <span class="muted">no figure reported</span></li>`;
    return html`<li><input type="checkbox" id="${id}-${p}" name="period" value="${p}"${cov.subscribed ? '' : ' disabled'}>
<label for="${id}-${p}" class="check"><span class="period">${p}</span> <span class="muted">${dataset.prices.firstAccess} credits</span></label></li>`;
  });
  const subscription = cov.subscribed
    ? ''
    : notice(
        'error',
        `Subscription required: ${dataset.label} needs the ${dataset.subscription} subscription, which this account does not hold. Ask your operator to add it.`,
      );
  if (forSale.length === 0) return html`${subscription}<ul class="periods">${items}</ul>`;
  return html`${subscription}<form method="get" action="/account/companies/${companyId}/buy" class="buy">
<input type="hidden" name="dataset" value="${id}">
<fieldset><legend>Periods of ${dataset.label}</legend><ul class="periods">${items}</ul></fieldset>
${cov.subscribed ? html`<p><button type="submit">Review purchase of ${dataset.label}</button></p>` : ''}
</form>`;
}

/**
 * Which API call answers which of the periods (design §11.2): the single call the spec's years,
 * history (and batch) the earlier ones, so a period bought here is fetched by a key for sure.
 */
export function apiCalls(dataset: Dataset, companyId: string, periods: readonly number[]): Html {
  const path = dataset.route.path;
  const earlier = periods.filter((p) => p < API_YEARS.singleCallFirst);
  const single = html`<code>GET ${path}?company_id=${companyId}&amp;reporting_period=YEAR</code> (${API_YEARS.singleCallFirst} to ${API_YEARS.last})`;
  if (earlier.length === 0) return html`By API: ${single}.`;
  const from = Math.min(...earlier);
  const to = Math.max(...earlier);
  return html`By API: ${single}; the years ${from === to ? `${from}` : `${from} to ${to}`}:
<code>GET ${path}/history?company_id=${companyId}&amp;from=${from}&amp;to=${to}</code>.`;
}

function datasetSection(companyId: string, cov: Coverage, companyName: string, message: Html | undefined): Html {
  const { dataset } = cov;
  const figures = cov.figures;
  const bought =
    figures.length === 0
      ? html`<p class="muted">${cov.bought.size === 0 ? 'Nothing bought yet: the figures appear here once bought.' : 'The periods bought have no figures.'}</p>`
      : html`${figureChart(`chart-${dataset.name}`, `${dataset.label} of ${companyName}`, latestFigures(figures))}
${figureTable(`${dataset.label} of ${companyName}: every figure bought`, figures)}`;
  return html`<section aria-labelledby="h-${dataset.name}" id="${dataset.name}">
<h2 id="h-${dataset.name}">${dataset.label}</h2>
${message ?? ''}
<p class="muted">${cov.periods.length === 0 ? 'No period available.' : `Available periods: ${cov.periods.length}, of which ${cov.bought.size} bought.`}
A period costs ${dataset.prices.firstAccess} credits once; after that the API answers it for ${dataset.prices.repeat}.</p>
${cov.periods.length === 0 ? '' : html`<p class="muted api-calls">${apiCalls(dataset, companyId, cov.periods)}</p>`}
${periodsForm(companyId, cov)}
${bought}
</section>`;
}

/** A company: its identifiers and, per dataset, what exists, what this account bought (with figures) and what the rest costs. */
export function companyPage(session: ConsoleSession, view: CompanyView): string {
  const c = view.company;
  // A purchase's confirmation ("Bought: Revenues 2024.") stands under its dataset's heading, where
  // the page lands after buying (#revenues): in view at any screen size, not above the page's top.
  const bought = view.message?.dataset;
  const home = bought === undefined ? undefined : view.coverage.find((cov) => cov.dataset.name === bought);
  const items = statementCoverage(view.coverage);
  const period = chosenPeriod(items, view.statementPeriod);
  return consolePage(
    c.name,
    session,
    'companies',
    html`<p class="muted"><a href="/account/companies">Companies</a> ›</p>
<h1>${c.name}</h1>
${home === undefined && view.message !== undefined ? notice(view.message.kind, view.message.text) : ''}
<p class="balance">Balance: <strong id="balance">${formatNumber(view.balance)}</strong> credits</p>
${identifiers(c)}
${period === undefined ? '' : statementSection(c.companyId, items, period, session.csrf)}
${view.coverage.map((cov) =>
  datasetSection(
    c.companyId,
    cov,
    c.name,
    home === cov && view.message !== undefined ? notice(view.message.kind, view.message.text) : undefined,
  ),
)}`,
  );
}
