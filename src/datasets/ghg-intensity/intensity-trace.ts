import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { formatNumber, html, page } from '../../web/html.js';
import type { TraceAccess, TracePoint } from '../dataset.js';
import { loadGhgFacts } from '../ghg-emissions/ghg-facts.js';
import { GHG_FIRST_ACCESS_CREDITS, GHG_REPEAT_CREDITS } from '../ghg-emissions/ghg-prices.js';
import { conversionText, reportFacts, SCOPE_TEXT } from '../ghg-emissions/ghg-trace.js';
import { buyOffer } from '../kit/buy-offer.js';
import { loadTraceFacts } from '../kit/money-figures/figure-facts.js';
import { publishedText, signedOutNotice, sourceLink } from '../kit/trace-notice.js';
import { REVENUE_FIGURES } from '../revenues/revenues-dataset.js';
import { ghgIntensityProvenance } from './intensity-provenance.js';
import { findServedIntensity } from './load-intensity.js';

/**
 * The trace hook of an intensity: `{emission point}~{revenue point}`, both documents on one page.
 * Only the pair the dataset's answer serves is a data point; any other pair of the company-period's
 * points is not one (a 404), so no made-up id reads a figure the account never bought.
 */
export async function traceIntensity(db: Kysely<Database>, id: string): Promise<TracePoint | undefined> {
  const [emissionId, revenueId, ...rest] = id.split('~');
  if (emissionId === undefined || revenueId === undefined || rest.length > 0) return undefined;
  const [emission, revenue] = await Promise.all([
    loadGhgFacts(db, emissionId),
    loadTraceFacts(db, REVENUE_FIGURES.table, revenueId),
  ]);
  if (emission === undefined || revenue === undefined) return undefined;
  if (emission.companyId !== revenue.companyId || emission.period !== revenue.period) return undefined;
  const served = await findServedIntensity(db, emission.companyId, emission.period, id);
  if (served === undefined) return undefined;
  const what = `${emission.companyName}, ${emission.period}`;
  const scope = SCOPE_TEXT[emission.scope] ?? emission.scope;
  return {
    subject: { companyId: emission.companyId, period: emission.period },
    served: true,
    async provenance(access: TraceAccess, publicUrl: string) {
      const figures =
        access === 'bought'
          ? {
              value: served.value,
              unit: 'tCO2e/USD million' as const,
              emissions_value: served.emissionValue,
              revenue_usd: served.revenueUsd,
            }
          : null;
      return ghgIntensityProvenance(id, emission, revenue, figures, publicUrl);
    },
    async page(access: TraceAccess, publicUrl: string) {
      const shown = access === 'bought';
      const call = `${publicUrl}/api/v1/ghg-intensity?company_id=${emission.companyId}&reporting_period=${emission.period}`;
      const notice =
        access === 'bought'
          ? html`<p class="muted">Values shown because your account bought the GHG intensity of ${what}.</p>`
          : access === 'signed-out'
            ? signedOutNotice(`The values are shown to accounts that have bought the GHG intensity of ${what}.`, id)
            : buyOffer({
                dataset: 'ghg-intensity',
                label: 'GHG intensity',
                companyId: emission.companyId,
                companyName: emission.companyName,
                period: emission.period,
                price: GHG_FIRST_ACCESS_CREDITS,
                repeatPrice: GHG_REPEAT_CREDITS,
                call,
              });
      const r = revenue.document;
      return page(
        `GHG intensity · ${emission.companyName} · ${emission.period}`,
        html`<p class="muted">Traceability of a data point</p>
<h1>GHG intensity, ${scope}, of ${what}</h1>
${notice}
<h2>Data point</h2>
<dl class="facts"><dt>Scope</dt><dd>${scope}</dd><dt>Reporting period</dt><dd>${emission.period}</dd><dt>Formula</dt>
<dd>emissions (tCO2e) ÷ (revenue (USD) ÷ 1,000,000), rounded half away from zero to 3 decimals</dd>
${
  shown
    ? html`<dt>Value</dt><dd class="value"><strong>${String(served.value)} tCO2e/USD million</strong></dd>
<dt>Emissions</dt><dd>${formatNumber(served.emissionValue)} tCO2e (${conversionText(emission)})</dd>
<dt>Revenue</dt><dd>${formatNumber(served.revenueUsd)} USD</dd>`
    : ''
}
<dt>Company</dt><dd>${emission.companyName} (<code>${emission.companyId}</code>)</dd></dl>
<h2>Emissions source report</h2>
${reportFacts(emission.document, emission.page)}
<p><a href="/trace/${emission.pointId}">The emission data point</a></p>
<h2>Revenue source document</h2>
<dl class="facts"><dt>Title</dt><dd>${r.title}</dd><dt>Source</dt><dd class="key">${sourceLink(r.sourceUrl)}</dd>
<dt>Published</dt><dd>${publishedText(r.publishedOn)}</dd><dt>Document id</dt><dd><code>${r.documentId}</code></dd></dl>
<p><a href="/trace/${revenue.pointId}">The revenue data point</a></p>`,
      );
    },
  };
}
