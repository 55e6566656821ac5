import type { Company } from '../catalog/catalog.js';
import type { Dataset } from '../datasets/dataset.js';
import { formatNumber, html } from '../web/html.js';
import { apiCalls } from './company-page.js';
import type { Quote } from './console-purchase.js';
import { consolePage, csrfField, notice } from './layout.js';
import type { ConsoleSession } from './sessions.js';

/**
 * The step between choosing periods and paying: what is bought, the total, the balance after;
 * then one button. A refused quote shows its reason and no button.
 */
export function buyPage(session: ConsoleSession, company: Company, dataset: Dataset, q: Quote): string {
  const back = `/account/companies/${company.companyId}#${dataset.name}`;
  const what = html`<dl class="facts"><dt>Company</dt><dd>${company.name}</dd><dt>Dataset</dt><dd>${dataset.label}</dd>
<dt>Periods</dt><dd id="buy-periods">${q.periods.length === 0 ? '—' : q.periods.join(', ')}</dd>
<dt>Total</dt><dd><strong id="buy-total">${formatNumber(q.total)}</strong> credits${q.ok && q.periods.length > 1 ? ` (${q.periods.length} × ${q.unitPrice})` : ''}</dd>
<dt>Balance</dt><dd>${formatNumber(q.balance)} credits</dd>
${q.ok ? html`<dt>Balance after</dt><dd><strong id="balance-after">${formatNumber(q.balance - q.total)}</strong> credits</dd>` : ''}</dl>`;
  const body = q.ok
    ? html`<h1>Buy ${dataset.label} of ${company.name}?</h1>
${what}
<p>Charged as the API charges: one ledger line per period, named “${dataset.label}”. The API then answers these periods for
${dataset.prices.repeat} credit each, and their trace pages show the values.</p>
<p class="muted">${apiCalls(dataset, company.companyId, q.periods)}</p>
<form method="post" action="/account/companies/${company.companyId}/buy">${csrfField(session.csrf)}
<input type="hidden" name="dataset" value="${dataset.name}"><input type="hidden" name="periods" value="${q.periods.join(',')}">
<p><button type="submit">Confirm: pay ${formatNumber(q.total)} credits</button> <a href="${back}">Cancel</a></p>
</form>`
    : html`<h1>Cannot buy ${dataset.label} of ${company.name}</h1>
${notice('error', q.reason)}
${what}
<p><a href="${back}">Back to ${company.name}</a> · <a href="/account/usage">Balance and usage</a></p>`;
  return consolePage(`Buy ${dataset.label}`, session, 'companies', body);
}
