import { digest, MOCK_YEAR, mockCompanyId, mockTraceUrl, uuidFrom } from '../../../mock/mock-data.js';
import type { MoneyRecord } from './figure-record.js';
import type { MoneyFigureSpec } from './money-figure-spec.js';

const MOCK_CURRENCIES = [
  { ccy: 'USD', usdPerUnit: 1 },
  { ccy: 'EUR', usdPerUnit: 1.08 },
  { ccy: 'GBP', usdPerUnit: 1.27 },
  { ccy: 'JPY', usdPerUnit: 0.0066 },
] as const;

/**
 * The dataset's test-token records for an identifier and a requested period (offsets count back
 * from 2025): the same documents for every money dataset of a company-period (one annual report
 * holds them all), the figures drawn from the dataset's own seed.
 */
export function figureMock<M extends string>(
  spec: MoneyFigureSpec & { metric: M },
): (identifier: string, requestedPeriod: number, publicUrl: string) => MoneyRecord<M>[] {
  return (identifier, requestedPeriod, publicUrl) => mockFigures(spec, identifier, requestedPeriod, publicUrl);
}

function mockFigures<M extends string>(
  spec: MoneyFigureSpec & { metric: M },
  identifier: string,
  requestedPeriod: number,
  publicUrl: string,
): MoneyRecord<M>[] {
  const period = requestedPeriod < 0 ? MOCK_YEAR + 1 + requestedPeriod : requestedPeriod;
  const seed = `${identifier.toUpperCase()}|${period}`;
  const d = digest(`${spec.mockSeed}:${seed}`);
  const currency = MOCK_CURRENCIES[(d[0] ?? 0) % MOCK_CURRENCIES.length] ?? MOCK_CURRENCIES[0];
  const sign = spec.mockSign === 'either' && (d[11] ?? 0) % 4 === 0 ? -1 : 1;
  const usd = sign * ((d.readUInt32BE(1) % 90_000) + 500) * 1_000_000;
  const companyId = mockCompanyId(identifier);
  const record = (disclosed: number, value: number, document: string): MoneyRecord<M> => ({
    year_of_disclosure: disclosed,
    reporting_period: period,
    metric: spec.metric,
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
