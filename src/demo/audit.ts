import { toTonnes } from '../datasets/ghg-emissions/units.js';
import { rateCurrency, toUsd } from '../money/normalize.js';
import { auditFindings, type CheckName, type Finding } from '../quality/findings.js';
import type { StatementFigure, StatementLine } from '../quality/statement-checks.js';
import type { DemoCompany } from './companies.js';
import type { DemoRate } from './fx.js';

/** Why a finding of each check stands in the demo, written beside it in REPORT.txt. */
const EXPLANATION: Readonly<Record<CheckName, string>> = {
  same_name_and_country: 'kept apart on purpose: see the "entities:" line of its name',
  revenue_tenfold_change:
    'served as the filing tags it (design §10 takes filed figures as filed): the jump is in the source, linked from the trace page for a reader to compare with the filing',
  revenue_concept_switch:
    'the filer tagged its total revenue under another concept that year (most moved to RevenueFromContractWithCustomer… with ASC 606); each year is the first present of the order of design §10.3',
  scope1_tenfold_change: 'served as the GHG source gives it for the report it names (see the "ghg" lines of this report)',
  document_of_another_company: 'a defect: the demo builder must not make one',
  document_without_figure: 'a defect: the demo builder writes a document only with a figure',
  gross_profit_arithmetic:
    "served as the filing tags them (design §10): the filing's own revenue, gross profit and cost of revenue disagree, or one of them is another line than its concept says; the trace page links the filing",
  balance_sheet_arithmetic:
    'served as the filing tags them (design §10): the filing tags a line between liabilities and equity (temporary or mezzanine equity, redeemable shares, a non-controlling interest under another concept) or its Liabilities is not the total',
  revenue_under_net_income:
    'served as the filing tags them (design §10): net income swollen by a gain outside revenue (a disposal, a revaluation), or revenue tagged as a sub-line; the trace pages link both filings',
};

interface Figure {
  companyId: string;
  documentId: string;
  period: number;
  value: string;
  currency: string;
  concept?: string;
  candidates?: string | null;
}

/**
 * The findings `bin/corpdata check-data` gives on a database seeded with this bundle, found by the
 * same checks over the bundle's rows (USD values converted as import converts them), each with why
 * it stands: REPORT.txt's "check-data:" lines.
 */
export function demoAudit(
  companies: readonly DemoCompany[],
  documents: ReadonlyArray<{ id: string; companyId: string; publishedOn: string; reportingPeriod?: number }>,
  revenues: readonly Figure[],
  emissions: ReadonlyArray<{ companyId: string; documentId: string; period: number; scope: string; value: string; unit: string }>,
  rates: readonly DemoRate[],
  filed: ReadonlyArray<{
    metric: string;
    figures: ReadonlyArray<{ companyId: string; documentId: string; period: number }>;
  }> = [],
  statements: Partial<Record<StatementLine, readonly Figure[]>> = {},
): { findings: Finding[]; lines: string[] } {
  const rate = new Map(rates.map((r) => [`${r.currency}:${r.year}`, r.usdPerUnit]));
  const usd = (f: Figure): number =>
    f.currency === 'USD'
      ? Number(f.value)
      : toUsd(Number(f.value), f.currency, rate.get(`${rateCurrency(f.currency).currency}:${f.period}`) ?? '0');
  const statementFigure = (f: Figure): StatementFigure => ({
    companyId: f.companyId,
    documentId: f.documentId,
    period: f.period,
    value: Number(f.value),
    valueUsd: usd(f),
    candidates: f.candidates ?? null,
  });
  const findings = auditFindings({
    companies: companies.map((c) => ({ id: c.id, name: c.name, country: c.country })),
    documents,
    revenues: revenues.map((f) => ({
      companyId: f.companyId,
      documentId: f.documentId,
      period: f.period,
      valueUsd: usd(f),
      concept: f.concept === undefined || f.concept === '' ? null : f.concept,
    })),
    emissions: emissions.map((e) => ({ ...e, value: toTonnes(e.value, e.unit) })),
    filed,
    statements: Object.fromEntries(Object.entries(statements).map(([line, figures]) => [line, figures.map(statementFigure)])),
  });
  const lines = findings.map(
    (f) =>
      `check-data: ${f.check}: ${f.company}${f.period === null ? '' : ` ${f.period}`}${f.document_id === null ? '' : ` (document ${f.document_id})`}: ${f.reason}: ${EXPLANATION[f.check]}`,
  );
  return { findings, lines };
}
