import { matchKey } from '../catalog/search/match-key.js';
import { disclosureOrder } from '../db/disclosure.js';
import { parsePairs } from '../ingest/filings/ingest-filings.js';
import { type StatementFigures, statementFindings } from './statement-checks.js';

/** The checks of `bin/corpdata check-data` (design §6), by the name a finding carries. */
export type CheckName =
  | 'same_name_and_country'
  | 'revenue_tenfold_change'
  | 'revenue_concept_switch'
  | 'scope1_tenfold_change'
  | 'document_of_another_company'
  | 'document_without_figure'
  | 'gross_profit_arithmetic'
  | 'balance_sheet_arithmetic'
  | 'revenue_under_net_income';

export const CHECKS: readonly CheckName[] = [
  'same_name_and_country',
  'revenue_tenfold_change',
  'revenue_concept_switch',
  'scope1_tenfold_change',
  'document_of_another_company',
  'document_without_figure',
  'gross_profit_arithmetic',
  'balance_sheet_arithmetic',
  'revenue_under_net_income',
];

/** One data-quality finding: what it is about and why it is one. */
export interface Finding {
  check: CheckName;
  company_id: string;
  company: string;
  period: number | null;
  document_id: string | null;
  reason: string;
}

/** What the checks read: the catalog, the documents and every figure, as plain rows. */
export interface AuditInput {
  companies: ReadonlyArray<{ id: string; name: string; country: string | null }>;
  /** `publishedOn` '' when the source gives no date; `reportingPeriod` then places it (`db/disclosure.ts`). */
  documents: ReadonlyArray<{ id: string; companyId: string; publishedOn: string; reportingPeriod?: number }>;
  revenues: ReadonlyArray<{ companyId: string; documentId: string; period: number; valueUsd: number; concept: string | null }>;
  emissions: ReadonlyArray<{ companyId: string; documentId: string; period: number; scope: string; value: number }>;
  /**
   * Figures of further datasets read from filings (net income…), by what their records call the
   * metric: they cite documents too, so their documents have a figure and must be their company's.
   */
  filed?: ReadonlyArray<{ metric: string; figures: ReadonlyArray<{ companyId: string; documentId: string; period: number }> }>;
  /** The statements' lines the cross-checks of design §18.5 read, with values and stored pairs. */
  statements?: StatementFigures;
}

/**
 * The documents a filed figure cites: its own, and the later filings that confirmed it by repeating
 * it rounded (`confirmed_by`: `document_id=value` pairs), whose trace it names (design §10.6).
 */
export function citedDocuments(documentId: string, confirmedBy: string | null | undefined): string[] {
  return [documentId, ...parsePairs(confirmedBy).map((p) => p.key)];
}

/** A change by more than this factor between consecutive years is a finding. */
const TENFOLD = 10;

interface Latest {
  period: number;
  value: number;
  documentId: string;
  concept: string | null;
}

/**
 * The latest figure of each company-period (the one of the latest published document, then the
 * greatest document id), by company, in period order: what a buyer reads as the period's figure.
 */
function latestByCompany(
  figures: ReadonlyArray<{ companyId: string; documentId: string; period: number; value: number; concept: string | null }>,
  published: ReadonlyMap<string, string>,
): Map<string, Latest[]> {
  const latest = new Map<string, Latest>();
  const order = (documentId: string) => `${published.get(documentId) ?? ''}|${documentId}`;
  for (const f of figures) {
    const key = `${f.companyId}|${f.period}`;
    const held = latest.get(key);
    if (held === undefined || order(f.documentId) > order(held.documentId)) {
      latest.set(key, { period: f.period, value: f.value, documentId: f.documentId, concept: f.concept });
    }
  }
  const byCompany = new Map<string, Latest[]>();
  for (const [key, l] of latest) {
    const companyId = key.slice(0, key.indexOf('|'));
    byCompany.set(companyId, [...(byCompany.get(companyId) ?? []), l]);
  }
  for (const list of byCompany.values()) list.sort((a, b) => a.period - b.period);
  return byCompany;
}

const tenfold = (a: number, b: number) =>
  a !== 0 && b !== 0 ? Math.max(Math.abs(a), Math.abs(b)) / Math.min(Math.abs(a), Math.abs(b)) > TENFOLD : a !== b;

/**
 * Every finding of the data-quality audit (design §6 `check-data`), in a stable order: by check,
 * then company, period and document. Pure: the CLI reads the database into an {@link AuditInput},
 * the demo builder its bundle, so both find the same.
 */
export function auditFindings(input: AuditInput): Finding[] {
  const names = new Map(input.companies.map((c) => [c.id, c.name]));
  // In order of disclosure: an undated report (GHG, ESEF without an index entry) in its year of disclosure.
  const published = new Map(
    input.documents.map((d) => [
      d.id,
      d.reportingPeriod === undefined ? d.publishedOn : disclosureOrder(d.publishedOn, d.reportingPeriod),
    ]),
  );
  const owner = new Map(input.documents.map((d) => [d.id, d.companyId]));
  const findings: Finding[] = [];
  const add = (check: CheckName, companyId: string, period: number | null, documentId: string | null, reason: string) =>
    findings.push({
      check,
      company_id: companyId,
      company: names.get(companyId) ?? companyId,
      period,
      document_id: documentId,
      reason,
    });

  const byNameCountry = new Map<string, string[]>();
  for (const c of input.companies) {
    if (c.country === null) continue;
    const key = `${matchKey(c.name)}|${c.country}`;
    byNameCountry.set(key, [...(byNameCountry.get(key) ?? []), c.id]);
  }
  for (const [key, ids] of byNameCountry) {
    if (ids.length < 2) continue;
    const [name, country] = key.split('|');
    for (const id of ids) {
      add('same_name_and_country', id, null, null, `${ids.length} companies of ${country} share the normalized name "${name}"`);
    }
  }

  const revenues = latestByCompany(
    input.revenues.map((r) => ({ ...r, value: r.valueUsd })),
    published,
  );
  for (const [companyId, list] of revenues) {
    for (let i = 1; i < list.length; i++) {
      const [a, b] = [list[i - 1] as Latest, list[i] as Latest];
      if (b.period !== a.period + 1) continue;
      if (tenfold(a.value, b.value)) {
        add(
          'revenue_tenfold_change',
          companyId,
          b.period,
          b.documentId,
          `revenue ${a.value} USD in ${a.period}, ${b.value} USD in ${b.period}`,
        );
      }
      if (a.concept !== null && b.concept !== null && a.concept !== b.concept) {
        add(
          'revenue_concept_switch',
          companyId,
          b.period,
          b.documentId,
          `revenue concept ${a.concept} in ${a.period}, ${b.concept} in ${b.period}`,
        );
      }
    }
  }

  const scope1 = latestByCompany(
    input.emissions.filter((e) => e.scope === '1').map((e) => ({ ...e, concept: null })),
    published,
  );
  for (const [companyId, list] of scope1) {
    for (let i = 1; i < list.length; i++) {
      const [a, b] = [list[i - 1] as Latest, list[i] as Latest];
      if (b.period === a.period + 1 && tenfold(a.value, b.value)) {
        add(
          'scope1_tenfold_change',
          companyId,
          b.period,
          b.documentId,
          `Scope 1 ${a.value} tCO2e in ${a.period}, ${b.value} tCO2e in ${b.period}`,
        );
      }
    }
  }

  const withFigure = new Set<string>();
  const cited: Array<readonly [string, ReadonlyArray<{ companyId: string; documentId: string; period: number }>]> = [
    ['revenue', input.revenues],
    ['emission', input.emissions],
    ...(input.filed ?? []).map((f) => [f.metric.toLowerCase(), f.figures] as const),
  ];
  for (const [kind, figures] of cited) {
    for (const f of figures) {
      withFigure.add(f.documentId);
      const documentCompany = owner.get(f.documentId);
      if (documentCompany !== undefined && documentCompany !== f.companyId) {
        add(
          'document_of_another_company',
          f.companyId,
          f.period,
          f.documentId,
          `a ${kind} figure cites a document of ${names.get(documentCompany) ?? documentCompany}`,
        );
      }
    }
  }
  for (const d of input.documents) {
    if (!withFigure.has(d.id)) add('document_without_figure', d.companyId, null, d.id, 'no figure cites this document');
  }

  // Disclosure order, then document id: the latest figure of a company-period, as above.
  for (const f of statementFindings(input.statements ?? {}, (id) => published.get(id) ?? '')) {
    add(f.check, f.companyId, f.period, f.documentId, f.reason);
  }

  const rank = new Map(CHECKS.map((c, i) => [c, i]));
  return findings.sort(
    (a, b) =>
      (rank.get(a.check) ?? 0) - (rank.get(b.check) ?? 0) ||
      (a.company_id < b.company_id ? -1 : a.company_id > b.company_id ? 1 : 0) ||
      (a.period ?? 0) - (b.period ?? 0) ||
      ((a.document_id ?? '') < (b.document_id ?? '') ? -1 : (a.document_id ?? '') > (b.document_id ?? '') ? 1 : 0),
  );
}

/**
 * The JSON `check-data` prints: counts by check and every finding not yet reviewed, then the
 * findings an accept file accepted (`--accept`, design §18.5), counted apart; `by_check` counts the
 * unreviewed ones only, those that make the command exit 3.
 */
export function auditReport(
  findings: readonly Finding[],
  accepted: readonly Finding[] = [],
): {
  findings: number;
  by_check: Record<CheckName, number>;
  items: Finding[];
  accepted: number;
  accepted_items: Finding[];
} {
  const byCheck = Object.fromEntries(CHECKS.map((c) => [c, 0])) as Record<CheckName, number>;
  for (const f of findings) byCheck[f.check]++;
  return {
    findings: findings.length,
    by_check: byCheck,
    items: [...findings],
    accepted: accepted.length,
    accepted_items: [...accepted],
  };
}
