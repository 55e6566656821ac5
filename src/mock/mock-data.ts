import { createHash } from 'node:crypto';
import type { CompanyRecord } from '../catalog/catalog.js';
import { UUID_TEXT } from '../catalog/identifiers.js';

/**
 * Deterministic mock data for the test token (design §1.11): the same request always gets the
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
