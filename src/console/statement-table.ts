import { formatNumber, type Html, html } from '../web/html.js';
import type { Coverage } from './explorer-query.js';
import type { Figure } from './figures.js';
import { csrfField } from './layout.js';

/** The statement items of a company's coverage: every line of the statements (design §18.3), in the registry's order. */
export function statementCoverage(coverage: readonly Coverage[]): Coverage[] {
  return coverage.filter((c) => c.dataset.statementItem === true);
}

/** The periods any item covers, most recent first. */
export function statementPeriods(items: readonly Coverage[]): number[] {
  return [...new Set(items.flatMap((c) => c.periods))].sort((a, b) => b - a);
}

/** The items of a period the account may buy now: subscribed, with a figure, not bought yet. */
export function itemsForSale(items: readonly Coverage[], period: number): Coverage[] {
  return items.filter((c) => c.subscribed && c.periods.includes(period) && !c.empty.has(period) && !c.bought.has(period));
}

/** The period the table shows: the one asked for when some item covers it, else the most recent. */
export function chosenPeriod(items: readonly Coverage[], asked: number | undefined): number | undefined {
  const periods = statementPeriods(items);
  return asked !== undefined && periods.includes(asked) ? asked : periods[0];
}

/** A bought figure: its value, how it was disclosed, linked to its trace page. */
function figureLink(f: Figure): Html {
  const how = f.disclosure === 'restated' ? `restated in ${f.disclosedIn ?? ''}` : `reported in ${f.disclosedIn ?? ''}`;
  return html`<a href="${f.tracePath}">${formatNumber(f.value)} ${f.unit}</a> <span class="muted">(${how})</span>`;
}

/** One item's cell: its bought figures, or why there is none, or what buying it costs. Never an unpaid figure. */
function itemCell(companyId: string, c: Coverage, period: number): Html {
  if (!c.periods.includes(period)) return html`<span class="muted">not covered by its documents</span>`;
  if (c.empty.has(period)) return html`<span class="muted">no figure reported</span>`;
  if (c.bought.has(period)) {
    const figures = c.figures.filter((f) => f.period === period);
    return html`<ul class="plain">${figures.map((f) => html`<li>${figureLink(f)}</li>`)}</ul>`;
  }
  if (!c.subscribed) return html`<span class="muted">needs the ${c.dataset.subscription} subscription</span>`;
  const params = new URLSearchParams({ dataset: c.dataset.name, period: String(period) });
  return html`<a href="/account/companies/${companyId}/buy?${params.toString()}" class="buy-item">Buy for ${c.dataset.prices.firstAccess} credits</a>`;
}

/**
 * The company's statement for one period (design §18.3): a row per item, each bought figure linked
 * to its trace page, each item for sale with its own purchase, and one form buying every item for
 * sale at once through the same charge as the API's statement call.
 */
export function statementSection(companyId: string, items: readonly Coverage[], period: number, csrf: string): Html {
  const periods = statementPeriods(items);
  const forSale = itemsForSale(items, period);
  const total = forSale.reduce((sum, c) => sum + c.dataset.prices.firstAccess, 0);
  const choose = html`<form method="get" action="/account/companies/${companyId}#statement" class="inline">
<label for="statement-period">Period</label> <select id="statement-period" name="statement">${periods.map(
    (p) => html`<option value="${p}"${p === period ? ' selected' : ''}>${p}</option>`,
  )}</select> <button type="submit">Show</button></form>`;
  const rows = items.map(
    (c) =>
      html`<tr><th scope="row" data-label="Item">${c.dataset.label}</th><td data-label="${String(period)}">${itemCell(companyId, c, period)}</td></tr>`,
  );
  const buyAll =
    forSale.length === 0
      ? ''
      : html`<form method="post" action="/account/companies/${companyId}/statement" class="buy">${csrfField(csrf)}
<input type="hidden" name="period" value="${period}">
<p><button type="submit">Buy all ${forSale.length} item${forSale.length === 1 ? '' : 's'} of ${period}: ${formatNumber(total)} credits</button></p></form>`;
  return html`<section aria-labelledby="h-statement" id="statement">
<h2 id="h-statement">Statement</h2>
<p class="muted">The statements' items of one period, as <code>GET /api/v1/fundamentals?company_id=${companyId}&amp;reporting_period=${period}</code> answers them.</p>
${choose}
<table class="cards"><caption>Statement of ${period}</caption>
<thead><tr><th scope="col">Item</th><th scope="col">${period}</th></tr></thead>
<tbody>${rows}</tbody></table>
${buyAll}
</section>`;
}
