import { createHash } from 'node:crypto';
import type { CompanyRecord } from '../catalog/catalog.js';
import { UUID_TEXT } from '../catalog/identifiers.js';
import type { RevenueRecord } from '../revenues/revenue-data.js';

/**
 * Deterministic mock data for the test token (DESIGN §1.11): the same request always gets the
 * same body, values look plausible, and every company is plainly called "Mock".
 */
export function digest(seed: string): Buffer {
  return createHash('sha256').update(seed).digest();
}

export function uuidFrom(seed: string): string {
  const h = digest(seed).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export const MOCK_YEAR = 2025;

const UUID = new RegExp(`^${UUID_TEXT}$`);

/**
 * The mock company an identifier names: a `company_id` the caller gave is that company (so a mock
 * search result's id, fed back, answers for the same id); any other identifier maps to a stable id.
 */
export function mockCompanyId(identifier: string): string {
  return UUID.test(identifier) ? identifier.toLowerCase() : uuidFrom(`company:${identifier.toUpperCase()}`);
}
const MOCK_CURRENCIES = [
  { ccy: 'USD', usdPerUnit: 1 },
  { ccy: 'EUR', usdPerUnit: 1.08 },
  { ccy: 'GBP', usdPerUnit: 1.27 },
  { ccy: 'JPY', usdPerUnit: 0.0066 },
] as const;

function titleCase(text: string): string {
  const clean = text.replace(/[^A-Za-z0-9 ]/g, ' ').trim();
  const word = clean === '' ? 'Sample' : clean.slice(0, 20);
  return word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
}

export function mockCompany(seed: string, label: string): CompanyRecord {
  const d = digest(`company:${seed}`);
  return {
    company_id: uuidFrom(`company:${seed}`),
    company_name: `Mock ${titleCase(label)} Corp`,
    ticker: `MOCK${(d.readUInt16BE(0) % 900) + 100}`,
    mic_code: 'XNYS',
    country: 'United States',
  };
}

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

/**
 * A mock data point's traceability URL: `/trace/mock-…`, which answers a page saying the figure is
 * test-mode mock data (never a 404, never a real document).
 */
export function mockTraceUrl(publicUrl: string, seed: string): string {
  return `${publicUrl}/trace/mock-${uuidFrom(seed)}`;
}

export function mockSearch(query: string): CompanyRecord[] {
  const count = ((digest(`search:${query}`)[0] ?? 0) % 3) + 1;
  return Array.from({ length: count }, (_, i) => mockCompany(`${query.toUpperCase()}#${i}`, `${query} ${i + 1}`));
}

export function mockList(): CompanyRecord[] {
  return ['Alpha', 'Beta', 'Gamma', 'Delta', 'Epsilon'].map((n) => mockCompany(`list:${n}`, n));
}

/** The periods the mock has for any identifier: the six most recent years, most recent first. */
export function mockPeriods(identifier: string): { company_id: string; reporting_periods: number[] } {
  return {
    company_id: mockCompanyId(identifier),
    reporting_periods: [0, 1, 2, 3, 4, 5].map((n) => MOCK_YEAR - n),
  };
}
