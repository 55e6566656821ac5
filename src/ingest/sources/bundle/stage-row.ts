import { rateCurrency, toUsd } from '../../../money/normalize.js';
import { type Rates, rateKey, USD_RATE } from '../../core/rates.js';
import type { StageTable } from '../../core/stage.js';
import type { BundleFile } from './bundle-files.js';
import { type Checked, checkCompany, checkDocument, checkFxRate, checkListing, checkRevenue } from './validate-row.js';

export { pointId, type Rates, rateKey, USD_RATE } from '../../core/rates.js';

export const STAGE_TABLE = {
  'fx_rates.csv': 'stage_fx',
  'companies.csv': 'stage_companies',
  'listings.csv': 'stage_listings',
  'documents.csv': 'stage_documents',
} as const satisfies Record<BundleFile, StageTable>;

/**
 * Checks one row and turns it into its stage row (an array in STAGE_COLUMNS order, without the
 * line). An fx_rates.csv row also joins `rates`, so figures later in the bundle convert with it.
 */
export function stageRow(file: BundleFile, v: Record<string, string>, rates: Rates): Checked<unknown[]> {
  switch (file) {
    case 'fx_rates.csv': {
      const c = checkFxRate(v);
      if (!c.ok) return c;
      const r = c.row;
      rates.set(rateKey(r.currency, r.year), { usdPerUnit: r.usdPerUnit, source: r.source });
      return { ok: true, row: [r.currency, r.year, r.usdPerUnit, r.source] };
    }
    case 'companies.csv': {
      const c = checkCompany(v);
      if (!c.ok) return c;
      const r = c.row;
      return { ok: true, row: [r.companyId, r.name, r.country, r.lei, r.ticker, r.micCode, r.isin, r.cik, r.otherCiks] };
    }
    case 'listings.csv': {
      const c = checkListing(v);
      if (!c.ok) return c;
      return { ok: true, row: [c.row.companyId, c.row.ticker, c.row.micCode, c.row.isin] };
    }
    case 'documents.csv': {
      const c = checkDocument(v);
      if (!c.ok) return c;
      const r = c.row;
      return {
        ok: true,
        row: [
          r.documentId,
          r.companyId,
          r.title,
          r.sourceUrl,
          r.publishedOn,
          r.reportingPeriod,
          r.status,
          r.form,
          r.accession,
          r.kind,
          r.mainDocumentUrl,
          r.source,
          r.sourceKey,
        ],
      };
    }
  }
}

/**
 * A money figure's row (`revenues.csv`'s columns, every money dataset's file alike) as it is staged:
 * checked, converted to USD with the rate of its currency and year (the database's, or one the
 * bundle's fx_rates.csv gave above it), keyed by `idOf(document, period)`. The stage's columns:
 * point_id, company_id, document_id, reporting_period, original_value, original_ccy, value_usd,
 * rate_currency, concept, period_start, period_end, candidates, confirmed_by, source_detail. A
 * `step` rounds the USD value to a multiple of it (a per-share figure in millionths: 100).
 */
export function stageMoneyFigure(
  v: Readonly<Record<string, string>>,
  rates: ReadonlyMap<string, { usdPerUnit: string; source: string }>,
  idOf: (documentId: string, period: number) => string,
  step = 1,
): Checked<unknown[]> {
  const c = checkRevenue(v);
  if (!c.ok) return c;
  const r = c.row;
  const basis = rateCurrency(r.currency);
  let rate = USD_RATE;
  if (r.currency !== 'USD') {
    const known = rates.get(rateKey(basis.currency, r.reportingPeriod));
    if (known === undefined) {
      return {
        ok: false,
        messages: [
          `no FX rate for ${basis.currency} ${r.reportingPeriod}: add it to fx_rates.csv (a figure is never stored without its USD value)`,
        ],
      };
    }
    rate = known;
  }
  let valueUsd: number;
  try {
    valueUsd = toUsd(r.value, r.currency, rate.usdPerUnit, step);
  } catch (error) {
    return { ok: false, messages: [(error as Error).message] };
  }
  return {
    ok: true,
    row: [
      idOf(r.documentId, r.reportingPeriod),
      r.companyId,
      r.documentId,
      r.reportingPeriod,
      r.value,
      r.currency,
      valueUsd,
      basis.currency,
      r.concept,
      r.periodStart,
      r.periodEnd,
      r.candidates,
      r.confirmedBy,
      r.sourceDetail,
    ],
  };
}
