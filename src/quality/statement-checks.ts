import { parsePairs } from '../ingest/filings/ingest-filings.js';

/** The statements' lines the cross-checks of design §18.5 read, by the figure table that holds them. */
export const STATEMENT_TABLES = {
  revenue_points: 'revenue',
  gross_profit_points: 'grossProfit',
  total_assets_points: 'totalAssets',
  total_liabilities_points: 'totalLiabilities',
  equity_points: 'equity',
  net_income_points: 'netIncome',
} as const;

export type StatementLine = (typeof STATEMENT_TABLES)[keyof typeof STATEMENT_TABLES];

/** One figure of a statement line: its value as filed and in USD, and its stored candidates. */
export interface StatementFigure {
  companyId: string;
  documentId: string;
  period: number;
  /** As filed, in the filing's currency. */
  value: number;
  valueUsd: number;
  /** The stored `concept=value` pairs: candidates, the guard's bounds, companions (design §18.5). */
  candidates: string | null;
}

export type StatementFigures = Partial<Record<StatementLine, readonly StatementFigure[]>>;

/** The filing's cost of revenue, first present (design §18.5): a companion of gross profit, or a bound of revenue. */
export const COST_OF_REVENUE = ['us-gaap:CostOfRevenue', 'us-gaap:CostOfGoodsAndServicesSold', 'ifrs-full:CostOfSales'];
/** The filing's non-controlling interest, a companion of equity (design §18.5). */
export const NONCONTROLLING_INTEREST = ['us-gaap:MinorityInterest', 'ifrs-full:NoncontrollingInterests'];
/** The filing's equity with its non-controlling interest, a companion of equity: read before the sum of the two. */
export const TOTAL_EQUITY = [
  'us-gaap:StockholdersEquityIncludingPortionAttributableToNoncontrollingInterest',
  'ifrs-full:Equity',
];

/** The arithmetic's tolerance: 0.5% of the filed total it checks. */
export const TOLERANCE = 0.005;

/** Whether `computed` equals the filed `expected` within {@link TOLERANCE} of it. */
export function withinTolerance(expected: number, computed: number): boolean {
  return Math.abs(computed - expected) <= TOLERANCE * Math.abs(expected);
}

/** A cross-check's finding before the catalog names its company. */
export interface StatementFinding {
  check: 'gross_profit_arithmetic' | 'balance_sheet_arithmetic' | 'revenue_under_net_income';
  companyId: string;
  period: number;
  documentId: string;
  reason: string;
}

/**
 * The latest figure of each company-period, by `company|period`: the one of the latest document in
 * order of disclosure (`order`), then the greatest document id, as the other checks read them.
 */
function latest(figures: readonly StatementFigure[] | undefined, order: (documentId: string) => string) {
  const held = new Map<string, StatementFigure>();
  for (const f of figures ?? []) {
    const key = `${f.companyId}|${f.period}`;
    const h = held.get(key);
    const [a, b] = [order(f.documentId), h === undefined ? '' : order(h.documentId)];
    if (h === undefined || a > b || (a === b && f.documentId > h.documentId)) held.set(key, f);
  }
  return held;
}

/** The first of `concepts` among a figure's stored pairs, or undefined. */
function companion(figure: StatementFigure, concepts: readonly string[]): { concept: string; value: number } | undefined {
  const pairs = parsePairs(figure.candidates);
  for (const concept of concepts) {
    const pair = pairs.find((p) => p.key === concept);
    const value = pair === undefined ? Number.NaN : Number(pair.value);
    if (Number.isFinite(value)) return { concept, value };
  }
  return undefined;
}

/**
 * The cross-checks of design §18.5 over the latest figure of each company-period: revenue − gross
 * profit = the filing's cost of revenue, total assets = total liabilities + equity (+ non-controlling
 * interest), each within 0.5% and only where every figure comes from the same filing; and revenue
 * under a tenth of the absolute net income (in USD, whatever the filings).
 */
export function statementFindings(lines: StatementFigures, order: (documentId: string) => string): StatementFinding[] {
  const findings: StatementFinding[] = [];
  const revenue = latest(lines.revenue, order);
  const grossProfit = latest(lines.grossProfit, order);
  const assets = latest(lines.totalAssets, order);
  const liabilities = latest(lines.totalLiabilities, order);
  const equity = latest(lines.equity, order);
  const netIncome = latest(lines.netIncome, order);

  for (const [key, gp] of grossProfit) {
    const rev = revenue.get(key);
    if (rev === undefined || rev.documentId !== gp.documentId) continue;
    const cost = companion(gp, COST_OF_REVENUE) ?? companion(rev, COST_OF_REVENUE);
    if (cost === undefined || withinTolerance(cost.value, rev.value - gp.value)) continue;
    findings.push({
      check: 'gross_profit_arithmetic',
      companyId: gp.companyId,
      period: gp.period,
      documentId: gp.documentId,
      reason: `revenue ${rev.value} − gross profit ${gp.value} = ${rev.value - gp.value}, the filing's ${cost.concept} ${cost.value} (off by more than 0.5%)`,
    });
  }

  for (const [key, a] of assets) {
    const [l, e] = [liabilities.get(key), equity.get(key)];
    if (l === undefined || e === undefined || l.documentId !== a.documentId || e.documentId !== a.documentId) continue;
    // The filing's total equity where it tags one, else the parent's equity and the non-controlling interest.
    const total = companion(e, TOTAL_EQUITY);
    const nci = total === undefined ? companion(e, NONCONTROLLING_INTEREST) : undefined;
    const sum = l.value + (total?.value ?? e.value + (nci?.value ?? 0));
    if (withinTolerance(a.value, sum)) continue;
    const plus =
      total !== undefined
        ? ` (with non-controlling interest ${total.concept} ${total.value})`
        : nci === undefined
          ? ''
          : ` + ${nci.concept} ${nci.value}`;
    findings.push({
      check: 'balance_sheet_arithmetic',
      companyId: a.companyId,
      period: a.period,
      documentId: a.documentId,
      reason: `total assets ${a.value}, total liabilities ${l.value} + equity ${e.value}${plus} = ${sum} (off by more than 0.5%)`,
    });
  }

  for (const [key, rev] of revenue) {
    const ni = netIncome.get(key);
    if (ni === undefined || !(Math.abs(rev.valueUsd) * 10 < Math.abs(ni.valueUsd))) continue;
    findings.push({
      check: 'revenue_under_net_income',
      companyId: rev.companyId,
      period: rev.period,
      documentId: rev.documentId,
      reason: `revenue ${rev.valueUsd} USD under a tenth of net income ${ni.valueUsd} USD (document ${ni.documentId})`,
    });
  }
  return findings;
}
