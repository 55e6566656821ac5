import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { loadCompanyRevenues } from '../../revenues/revenue-data.js';
import { GHG_SCOPES } from '../ghg-emissions/ghg-record.js';
import { loadCompanyEmissions } from '../ghg-emissions/load-emissions.js';
import type { CompanyData } from '../period-data.js';
import { intensity } from './intensity.js';
import type { GhgIntensityRecord } from './intensity-record.js';

const lastSegment = (url: string): string => url.slice(url.lastIndexOf('/') + 1);

/** Trace id of an intensity: its emission point and its revenue point, both shown on its page. */
export const intensityTraceId = (emissionPointId: string, revenuePointId: string): string =>
  `${emissionPointId}~${revenuePointId}`;

/**
 * A company's intensities: for each period covered by emission or revenue documents, one record
 * per scope that has both an emission figure and a positive revenue figure, each the latest
 * disclosed (the last in the API's order). A covered period without both is a 204.
 */
export async function loadCompanyIntensity(
  db: Kysely<Database>,
  companyId: string,
  publicUrl: string,
): Promise<CompanyData<GhgIntensityRecord>> {
  const [emissions, revenues] = await Promise.all([
    loadCompanyEmissions(db, companyId, publicUrl),
    loadCompanyRevenues(db, companyId, publicUrl),
  ]);
  const periods = [...new Set([...emissions.periods, ...revenues.periods])].sort((a, b) => b - a);
  const records = new Map<number, GhgIntensityRecord[]>();
  for (const period of periods) {
    const list: GhgIntensityRecord[] = [];
    const revenue = revenues.records.get(period)?.at(-1);
    const figures = emissions.records.get(period) ?? [];
    for (const scope of GHG_SCOPES) {
      const emission = figures.filter((f) => f.scope === scope).at(-1);
      if (emission === undefined || revenue === undefined) continue;
      const value = intensity(emission.value, revenue.value);
      if (value === undefined) continue;
      const id = intensityTraceId(lastSegment(emission.traceability_source_url), lastSegment(revenue.traceability_source_url));
      list.push({
        reporting_period: period,
        scope,
        value,
        unit: 'tCO2e/USD million',
        company_id: companyId,
        emissions_document_id: emission.document_id,
        revenue_document_id: revenue.document_id,
        traceability_source_url: `${publicUrl}/trace/${id}`,
      });
    }
    records.set(period, list);
  }
  return { periods, records };
}
