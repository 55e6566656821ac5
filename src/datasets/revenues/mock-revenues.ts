import { digest, MOCK_YEAR, mockCompanyId, mockTraceUrl, uuidFrom } from '../../mock/mock-data.js';
import type { RevenueRecord } from './revenue-record.js';

const MOCK_CURRENCIES = [
  { ccy: 'USD', usdPerUnit: 1 },
  { ccy: 'EUR', usdPerUnit: 1.08 },
  { ccy: 'GBP', usdPerUnit: 1.27 },
  { ccy: 'JPY', usdPerUnit: 0.0066 },
] as const;

/** Mock revenue records for an identifier and a requested period (offsets count back from 2025). */
export function mockRevenues(identifier: string, requestedPeriod: number, publicUrl: string): RevenueRecord[] {
  const period = requestedPeriod < 0 ? MOCK_YEAR + 1 + requestedPeriod : requestedPeriod;
  const seed = `${identifier.toUpperCase()}|${period}`;
  const d = digest(`revenue:${seed}`);
  const currency = MOCK_CURRENCIES[(d[0] ?? 0) % MOCK_CURRENCIES.length] ?? MOCK_CURRENCIES[0];
  const usd = ((d.readUInt32BE(1) % 90_000) + 500) * 1_000_000;
  const companyId = mockCompanyId(identifier);
  const record = (disclosed: number, value: number, document: string): RevenueRecord => ({
    year_of_disclosure: disclosed,
    reporting_period: period,
    metric: 'Total Revenue',
    value,
    ccy: 'USD',
    original_value: currency.ccy === 'USD' ? value : Math.round(value / currency.usdPerUnit),
    original_ccy: currency.ccy,
    company_id: companyId,
    document_id: uuidFrom(`${document}:${seed}`),
    traceability_source_url: mockTraceUrl(publicUrl, `${document}-point:${seed}`),
  });
  // About one company-period in three was restated a year later, as real filings are: the figure as
  // first reported, then the restatement, as a live answer lists them.
  if (period < MOCK_YEAR && (d[9] ?? 0) % 3 === 0) {
    const first = usd - ((d[10] ?? 0) % 50) * 1_000_000 - 1_000_000;
    return [record(period + 1, first, 'document'), record(period + 2, usd, 'restatement')];
  }
  return [record(period + 1, usd, 'document')];
}
