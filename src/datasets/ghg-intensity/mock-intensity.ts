import { mockEmissions } from '../ghg-emissions/mock-emissions.js';
import { revenues } from '../revenues/revenues-dataset.js';
import { intensity } from './intensity.js';
import type { GhgIntensityRecord } from './intensity-record.js';

const lastSegment = (url: string): string => url.slice(url.lastIndexOf('/') + 1);

/** Test-token intensities: the mock emissions over the mock revenue of the same request. */
export function mockIntensity(identifier: string, requestedPeriod: number, publicUrl: string): GhgIntensityRecord[] {
  const [revenue] = revenues.mock(identifier, requestedPeriod, publicUrl);
  if (revenue === undefined) return [];
  return mockEmissions(identifier, requestedPeriod, publicUrl).map((e) => ({
    reporting_period: e.reporting_period,
    scope: e.scope,
    value: intensity(e.value, revenue.value) ?? 0,
    unit: 'tCO2e/USD million',
    company_id: e.company_id,
    emissions_document_id: e.document_id,
    revenue_document_id: revenue.document_id,
    traceability_source_url: `${publicUrl}/trace/${lastSegment(e.traceability_source_url)}~${lastSegment(revenue.traceability_source_url)}`,
  }));
}
