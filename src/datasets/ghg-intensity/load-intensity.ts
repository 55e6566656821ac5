import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { GHG_SCOPES, type GhgEmissionRecord } from '../ghg-emissions/ghg-record.js';
import { loadCompanyEmissions } from '../ghg-emissions/load-emissions.js';
import type { CompanyData } from '../period-data.js';
import { type RevenueRecord, revenues as revenueDataset } from '../revenues/revenues-dataset.js';
import { intensity } from './intensity.js';
import type { GhgIntensityRecord } from './intensity-record.js';

const lastSegment = (url: string): string => url.slice(url.lastIndexOf('/') + 1);

/** Trace id of an intensity: its emission point and its revenue point, both shown on its page. */
export const intensityTraceId = (emissionPointId: string, revenuePointId: string): string =>
  `${emissionPointId}~${revenuePointId}`;

/** One served intensity: the emission and revenue records it divides, and its trace id. */
interface IntensityPoint {
  period: number;
  scope: GhgIntensityRecord['scope'];
  value: number;
  emission: GhgEmissionRecord;
  revenue: RevenueRecord;
  traceId: string;
}

/**
 * For each period covered by both a sustainability report and a financial report (design §1.4:
 * intensity needs both), one intensity per scope that has both
 * an emission figure and a positive revenue figure, each the latest disclosed (the last in the
 * API's order). This pairing is the only one served: a trace id is valid only if made here.
 */
async function loadIntensityPoints(
  db: Kysely<Database>,
  companyId: string,
): Promise<{ periods: number[]; points: Map<number, IntensityPoint[]> }> {
  const [emissions, revenues] = await Promise.all([
    loadCompanyEmissions(db, companyId, ''),
    revenueDataset.load(db, companyId, ''),
  ]);
  const financial = new Set(revenues.periods);
  const periods = emissions.periods.filter((p) => financial.has(p));
  const points = new Map<number, IntensityPoint[]>();
  for (const period of periods) {
    const list: IntensityPoint[] = [];
    const revenue = revenues.records.get(period)?.at(-1);
    const figures = emissions.records.get(period) ?? [];
    for (const scope of GHG_SCOPES) {
      const emission = figures.filter((f) => f.scope === scope).at(-1);
      if (emission === undefined || revenue === undefined) continue;
      const value = intensity(emission.value, revenue.value);
      if (value === undefined) continue;
      const traceId = intensityTraceId(
        lastSegment(emission.traceability_source_url),
        lastSegment(revenue.traceability_source_url),
      );
      list.push({ period, scope, value, emission, revenue, traceId });
    }
    points.set(period, list);
  }
  return { periods, points };
}

/** A company's intensities (a covered period without both figures is a 204). */
export async function loadCompanyIntensity(
  db: Kysely<Database>,
  companyId: string,
  publicUrl: string,
): Promise<CompanyData<GhgIntensityRecord>> {
  const { periods, points } = await loadIntensityPoints(db, companyId);
  const records = new Map<number, GhgIntensityRecord[]>();
  for (const [period, list] of points) {
    records.set(
      period,
      list.map((p) => ({
        reporting_period: period,
        scope: p.scope,
        value: p.value,
        unit: 'tCO2e/USD million',
        company_id: companyId,
        emissions_document_id: p.emission.document_id,
        revenue_document_id: p.revenue.document_id,
        traceability_source_url: `${publicUrl}/trace/${p.traceId}`,
      })),
    );
  }
  return { periods, records };
}

/**
 * The intensity an answer serves under `traceId` for the company-period, or undefined: any other
 * pair of points (an earlier figure, a pending document's) is no data point at all.
 */
export async function findServedIntensity(
  db: Kysely<Database>,
  companyId: string,
  period: number,
  traceId: string,
): Promise<{ value: number; emissionValue: number; revenueUsd: number } | undefined> {
  const { points } = await loadIntensityPoints(db, companyId);
  const point = points.get(period)?.find((p) => p.traceId === traceId);
  return point === undefined
    ? undefined
    : { value: point.value, emissionValue: point.emission.value, revenueUsd: point.revenue.value };
}
