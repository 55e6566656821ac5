import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { formatNumber, type Html, html, page } from '../../web/html.js';
import type { TraceAccess, TracePoint } from '../dataset.js';
import { buyOffer } from '../kit/buy-offer.js';
import { notServedNotice, STATUS_TEXT } from '../kit/document-status.js';
import { publishedText, signedOutNotice, sourceLink } from '../kit/trace-notice.js';
import { type GhgTraceFacts, loadGhgFacts } from './ghg-facts.js';
import { GHG_FIRST_ACCESS_CREDITS, GHG_REPEAT_CREDITS } from './ghg-prices.js';
import { ghgEmissionProvenance } from './ghg-provenance.js';
import { disclosureYear } from './ghg-record.js';

export const SCOPE_TEXT: Record<string, string> = {
  '1': 'Scope 1 (direct)',
  '2-location': 'Scope 2, location-based',
  '2-market': 'Scope 2, market-based',
  '3': 'Scope 3 (value chain)',
};

/** The report a figure came from: title, link, page where known, publication, status. */
export function reportFacts(d: GhgTraceFacts['document'], pageRef: string | null): Html {
  return html`<dl class="facts"><dt>Title</dt><dd>${d.title}</dd><dt>Source</dt><dd class="key">${sourceLink(d.sourceUrl)}</dd>
<dt>Page</dt><dd>${pageRef ?? 'not recorded'}</dd><dt>Published</dt><dd>${publishedText(d.publishedOn)}</dd>
<dt>Status</dt><dd>${STATUS_TEXT[d.status]}</dd><dt>Document id</dt><dd><code>${d.documentId}</code></dd></dl>`;
}

/** How the reported figure became the served one. */
export function conversionText(f: Pick<GhgTraceFacts, 'sourceValue' | 'sourceUnit' | 'value'>): string {
  if (f.sourceUnit === 't') return `reported in tCO2e as ${f.sourceValue}; served as ${formatNumber(f.value)} tCO2e`;
  const factor = f.sourceUnit === 'kt' ? '1,000' : '1,000,000';
  return `reported as ${f.sourceValue} ${f.sourceUnit}CO2e × ${factor} = ${formatNumber(f.value)} tCO2e (rounded half away from zero)`;
}

function yearText(d: GhgTraceFacts['document']): string {
  const year = disclosureYear(d.publishedOn, d.reportingPeriod);
  return d.publishedOn === '' ? `${year} (taken as the year after the period the report covers)` : String(year);
}

function notice(f: GhgTraceFacts, access: TraceAccess, publicUrl: string): Html {
  const what = `${f.companyName}, ${f.period}`;
  if (access === 'not-served') return notServedNotice(f.document.status);
  if (access === 'bought') return html`<p class="muted">Values shown because your account bought ${what} (GHG emissions).</p>`;
  if (access === 'signed-out') {
    return signedOutNotice(
      `The values of this data point are shown to accounts that have bought the GHG emissions of ${what}.`,
      f.pointId,
    );
  }
  return buyOffer({
    dataset: 'ghg-emissions',
    label: 'GHG emissions',
    companyId: f.companyId,
    companyName: f.companyName,
    period: f.period,
    price: GHG_FIRST_ACCESS_CREDITS,
    repeatPrice: GHG_REPEAT_CREDITS,
    call: `${publicUrl}/api/v1/ghg-emissions?company_id=${f.companyId}&reporting_period=${f.period}`,
  });
}

/** The trace page of an emission point: the report it came from, its page and the unit conversion. */
export function ghgTracePage(f: GhgTraceFacts, access: TraceAccess, publicUrl: string): string {
  const shown = access === 'bought';
  return page(
    `${SCOPE_TEXT[f.scope] ?? f.scope} · ${f.companyName} · ${f.period}`,
    html`<p class="muted">Traceability of a data point</p>
<h1>GHG emissions, ${SCOPE_TEXT[f.scope] ?? f.scope}, of ${f.companyName}, ${f.period}</h1>
${notice(f, access, publicUrl)}
<h2>Data point</h2>
<dl class="facts"><dt>Scope</dt><dd>${SCOPE_TEXT[f.scope] ?? f.scope}</dd><dt>Reporting period</dt><dd>${f.period}</dd>
<dt>Year of disclosure</dt><dd>${yearText(f.document)}</dd><dt>Unit reported</dt><dd>${f.sourceUnit}CO2e</dd>
${shown ? html`<dt>Value</dt><dd class="value"><strong>${formatNumber(f.value)} tCO2e</strong></dd><dt>Unit conversion</dt><dd>${conversionText(f)}</dd>` : ''}
<dt>Data point id</dt><dd><code>${f.pointId}</code></dd></dl>
<h2>Company</h2>
<dl class="facts"><dt>Name</dt><dd>${f.companyName}</dd><dt>Country</dt><dd>${f.country ?? '—'}</dd>
<dt>LEI</dt><dd>${f.lei === null ? '—' : html`<code>${f.lei}</code>`}</dd><dt>Company id</dt><dd><code>${f.companyId}</code></dd></dl>
<h2>Source report</h2>
${reportFacts(f.document, f.page)}`,
  );
}

/** The dataset's trace hook. */
export async function traceEmission(db: Kysely<Database>, id: string): Promise<TracePoint | undefined> {
  const facts = await loadGhgFacts(db, id);
  if (facts === undefined) return undefined;
  return {
    subject: { companyId: facts.companyId, period: facts.period },
    served: facts.document.status === 'processed',
    page: async (access, publicUrl) => ghgTracePage(facts, access, publicUrl),
    provenance: async (access, publicUrl) => ghgEmissionProvenance(facts, access, publicUrl),
  };
}
