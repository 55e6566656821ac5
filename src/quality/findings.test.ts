import { describe, expect, it } from 'vitest';
import { type AuditInput, auditFindings, auditReport } from './findings.js';

const company = (id: string, name: string, country: string | null) => ({ id, name, country });
const document = (id: string, companyId: string, publishedOn = '2024-03-01') => ({ id, companyId, publishedOn });

/** Figures as the demo's sources gave them: each check fires on its case and on nothing else. */
describe('the data-quality audit', () => {
  const input: AuditInput = {
    companies: [
      company('a', 'Nestle India Limited', 'India'),
      company('b', 'Nestlé India Ltd.', 'India'),
      company('c', 'Pfizer Limited', 'India'),
      company('d', 'Pfizer Inc.', 'United States'),
      company('e', 'Duke Energy', 'United States'),
    ],
    documents: [
      document('d1', 'd', '2021-02-25'),
      document('d2', 'd', '2022-02-24'),
      document('d3', 'e'),
      document('d4', 'e'),
      document('d5', 'c'),
      document('d6', 'c'),
    ],
    revenues: [
      { companyId: 'd', documentId: 'd1', period: 2020, valueUsd: 41_908_000_000, concept: 'us-gaap:Revenues' },
      {
        companyId: 'd',
        documentId: 'd2',
        period: 2021,
        valueUsd: 81_288_000_000,
        concept: 'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax',
      },
      { companyId: 'c', documentId: 'd5', period: 2020, valueUsd: 300_000_000, concept: null },
      { companyId: 'c', documentId: 'd5', period: 2021, valueUsd: 3_100_000_000, concept: null },
    ],
    emissions: [
      { companyId: 'e', documentId: 'd3', period: 2018, scope: '1', value: 160_000 },
      { companyId: 'e', documentId: 'd3', period: 2019, scope: '1', value: 84_000_000 },
      { companyId: 'e', documentId: 'd3', period: 2019, scope: '2-location', value: 1 },
      { companyId: 'd', documentId: 'd4', period: 2020, scope: '1', value: 600_000 },
    ],
  };

  it('finds each case once, with its company, period, document and reason', () => {
    const found = auditFindings(input).map((f) => [f.check, f.company_id, f.period, f.document_id]);
    expect(found).toEqual([
      ['same_name_and_country', 'a', null, null],
      ['same_name_and_country', 'b', null, null],
      ['revenue_tenfold_change', 'c', 2021, 'd5'],
      ['revenue_concept_switch', 'd', 2021, 'd2'],
      ['scope1_tenfold_change', 'e', 2019, 'd3'],
      ['document_of_another_company', 'd', 2020, 'd4'],
      ['document_without_figure', 'c', null, 'd6'],
    ]);
    expect(auditFindings(input)[2]?.reason).toBe('revenue 300000000 USD in 2020, 3100000000 USD in 2021');
  });

  it('reads the latest figure of a period, and compares consecutive years only', () => {
    const findings = auditFindings({
      companies: [company('x', 'Adobe', 'United States')],
      documents: [document('old', 'x', '2019-01-25'), document('new', 'x', '2020-01-24')],
      revenues: [
        // A tenfold slip restated by the next filing: the period's figure is the later one.
        { companyId: 'x', documentId: 'old', period: 2018, valueUsd: 903_000_800, concept: null },
        { companyId: 'x', documentId: 'new', period: 2018, valueUsd: 9_030_008_000, concept: null },
        { companyId: 'x', documentId: 'new', period: 2019, valueUsd: 11_171_297_000, concept: null },
        { companyId: 'x', documentId: 'old', period: 2008, valueUsd: 1, concept: null },
      ],
      emissions: [],
    });
    expect(findings).toEqual([]);
    expect(auditReport(findings)).toMatchObject({ findings: 0, items: [] });
  });

  it('places a document of unknown date in the year after the period it covers (design §14.5)', () => {
    const input = (undatedPeriod: number): AuditInput => ({
      companies: [company('k', 'Kainos Group plc', 'United Kingdom')],
      documents: [
        { id: 'fy23', companyId: 'k', publishedOn: '2023-08-01', reportingPeriod: 2023 },
        { id: 'fy24', companyId: 'k', publishedOn: '2024-12-31', reportingPeriod: 2024 },
        // An ESEF report no index lists, restating fiscal 2024.
        { id: 'undated', companyId: 'k', publishedOn: '', reportingPeriod: undatedPeriod },
      ],
      revenues: [
        { companyId: 'k', documentId: 'fy23', period: 2023, valueUsd: 100_000_000, concept: null },
        { companyId: 'k', documentId: 'fy24', period: 2024, valueUsd: 2_000_000_000, concept: null },
        { companyId: 'k', documentId: 'undated', period: 2024, valueUsd: 120_000_000, concept: null },
      ],
      emissions: [],
    });
    // Reporting on 2025, it was disclosed in 2026: after fiscal 2024's report, so its figure is 2024's latest.
    expect(auditFindings(input(2025))).toEqual([]);
    // Reporting on 2023, disclosed in 2024 (before 31 December): fiscal 2024's report is the latest, a tenfold change.
    expect(auditFindings(input(2023)).map((f) => [f.check, f.document_id])).toEqual([['revenue_tenfold_change', 'fy24']]);
  });
});
