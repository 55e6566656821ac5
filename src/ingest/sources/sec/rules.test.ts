import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isAnnualPeriod, reportingPeriodOf } from '../../filings/periods.js';
import { filingIndexUrl, isAnnualForm, normalizeCik } from './rules.js';

const iso = (d: Date) => d.toISOString().slice(0, 10);
const day = fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true });
const plusDays = (d: Date, n: number) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + n));

describe('SEC rules', () => {
  it('counts a fiscal year to the calendar year it ends in, one ending by 7 January to the year before', () => {
    fc.assert(
      fc.property(day, (d) => {
        const end = iso(d);
        const early = d.getUTCMonth() === 0 && d.getUTCDate() <= 7;
        expect(reportingPeriodOf(end)).toBe(d.getUTCFullYear() - (early ? 1 : 0));
      }),
    );
    expect(reportingPeriodOf('2025-01-31')).toBe(2025);
    expect(reportingPeriodOf('2022-01-01')).toBe(2021);
    expect(reportingPeriodOf('2021-01-08')).toBe(2021);
  });

  it('takes 52 and 53 weeks and twelve calendar months as a year, nothing shorter or longer', () => {
    fc.assert(
      fc.property(day, fc.integer({ min: 1, max: 800 }), (start, days) => {
        const end = plusDays(start, days - 1);
        const twelveMonths = iso(
          plusDays(new Date(Date.UTC(start.getUTCFullYear() + 1, start.getUTCMonth(), start.getUTCDate())), -1),
        );
        const expected = days === 364 || days === 371 || (iso(end) === twelveMonths && start.getUTCDate() <= 28);
        if (start.getUTCDate() <= 28) expect(isAnnualPeriod(iso(start), iso(end))).toBe(expected);
      }),
    );
    expect(isAnnualPeriod('2019-07-01', '2020-06-30')).toBe(true);
    expect(isAnnualPeriod('2019-09-29', '2020-09-26')).toBe(true);
    expect(isAnnualPeriod('2020-02-01', '2021-01-31')).toBe(true);
    expect(isAnnualPeriod('2020-04-01', '2020-06-30')).toBe(false);
  });

  it('reads annual-report forms and their amendments only', () => {
    for (const f of ['10-K', '10-K/A', '20-F', '20-F/A', '40-F', '40-F/A']) expect(isAnnualForm(f)).toBe(true);
    for (const f of ['10-KT', '10-KT/A', '10-Q', '10-Q/A', '8-K', '6-K', '10-K405']) expect(isAnnualForm(f)).toBe(false);
  });

  it('writes the filing index URL as EDGAR does, the CIK without its leading zeros', () => {
    expect(filingIndexUrl('0000789019', '0001564590-20-034944')).toBe(
      'https://www.sec.gov/Archives/edgar/data/789019/000156459020034944/0001564590-20-034944-index.htm',
    );
    expect(normalizeCik(789019)).toBe('0000789019');
    expect(normalizeCik('0001997711')).toBe('0001997711');
    for (const bad of ['', '0', 'abc', '12345678901', 1.5, null]) expect(normalizeCik(bad)).toBeUndefined();
  });
});
