import { digest, MOCK_YEAR, mockCompanyId, mockTraceUrl, uuidFrom } from '../../../mock/mock-data.js';
import { type FigureRecord, figureRecord } from './figure-record.js';
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
): (identifier: string, requestedPeriod: number, publicUrl: string) => FigureRecord<M>[] {
  return (identifier, requestedPeriod, publicUrl) => mockFigures(spec, identifier, requestedPeriod, publicUrl);
}

function mockFigures<M extends string>(
  spec: MoneyFigureSpec & { metric: M },
  identifier: string,
  requestedPeriod: number,
  publicUrl: string,
): FigureRecord<M>[] {
  const period = requestedPeriod < 0 ? MOCK_YEAR + 1 + requestedPeriod : requestedPeriod;
  const seed = `${identifier.toUpperCase()}|${period}`;
  const d = digest(`${spec.mockSeed}:${seed}`);
  const currency = MOCK_CURRENCIES[(d[0] ?? 0) % MOCK_CURRENCIES.length] ?? MOCK_CURRENCIES[0];
  const sign = spec.mockSign === 'either' && (d[11] ?? 0) % 4 === 0 ? -1 : 1;
  // Whole millions of USD; a per-share figure in millionths: whole cents, 0.50 to 90.49 a share.
  const perShare = spec.perShare === true;
  const step = perShare ? 10_000 : 1_000_000;
  const usd = sign * ((d.readUInt32BE(1) % (perShare ? 9_000 : 90_000)) + (perShare ? 50 : 500)) * step;
  const companyId = mockCompanyId(identifier);
  const cent = perShare ? 10_000 : 1;
  const record = (disclosed: number, value: number, document: string): FigureRecord<M> =>
    figureRecord(
      spec,
      {
        valueUsd: value,
        // The original rounded as tagged: whole units, cents of a currency per share.
        originalValue: currency.ccy === 'USD' ? value : Math.round(value / currency.usdPerUnit / cent) * cent,
        originalCcy: currency.ccy,
      },
      {
        year_of_disclosure: disclosed,
        reporting_period: period,
        company_id: companyId,
        document_id: uuidFrom(`${document}:${seed}`),
        traceability_source_url: mockTraceUrl(publicUrl, `${document}-point:${seed}`),
      },
    );
  // About one company-period in three was restated a year later, as real filings are: the figure as
  // first reported, then the restatement, as a live answer lists them.
  if (period < MOCK_YEAR && (d[9] ?? 0) % 3 === 0) {
    const first = usd - ((d[10] ?? 0) % 50) * step - step;
    return [record(period + 1, first, 'document'), record(period + 2, usd, 'restatement')];
  }
  return [record(period + 1, usd, 'document')];
}
