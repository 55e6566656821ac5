import { digest, MOCK_YEAR, mockCompanyId, mockTraceUrl, uuidFrom } from '../../mock/mock-data.js';
import type { GhgEmissionRecord } from './ghg-record.js';

/**
 * Test-token emission records: one per scope, the same for the same identifier and period, for
 * the same mock company the revenues mock names.
 */
export function mockEmissions(identifier: string, requestedPeriod: number, publicUrl: string): GhgEmissionRecord[] {
  const period = requestedPeriod < 0 ? MOCK_YEAR + 1 + requestedPeriod : requestedPeriod;
  const seed = `${identifier.toUpperCase()}|${period}`;
  const d = digest(`ghg:${seed}`);
  const companyId = mockCompanyId(identifier);
  const documentId = uuidFrom(`ghg-document:${seed}`);
  const scope1 = (d.readUInt32BE(0) % 5_000_000) + 10_000;
  const location = (d.readUInt32BE(4) % 2_000_000) + 5_000;
  const values: Array<[GhgEmissionRecord['scope'], number]> = [
    ['1', scope1],
    ['2-location', location],
    ['2-market', Math.round(location * 0.8)],
    ['3', scope1 * ((d[8] ?? 0) % 20) + scope1],
  ];
  return values.map(([scope, value]) => ({
    year_of_disclosure: period + 1,
    reporting_period: period,
    scope,
    value,
    unit: 'tCO2e',
    company_id: companyId,
    document_id: documentId,
    traceability_source_url: mockTraceUrl(publicUrl, `ghg-point:${seed}|${scope}`),
  }));
}
