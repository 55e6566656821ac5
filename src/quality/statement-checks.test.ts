import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type StatementFigure, statementFindings, TOLERANCE, withinTolerance } from './statement-checks.js';

const figure = (documentId: string, value: number, candidates: string | null = null, period = 2023): StatementFigure => ({
  companyId: 'c',
  documentId,
  period,
  value,
  valueUsd: value,
  candidates,
});
const byId = (id: string) => id;

describe('withinTolerance (design §18.5: 0.5% of the filed total)', () => {
  it('holds up to 0.5% off either way and fails beyond', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1_000, max: 1_000_000_000_000 }),
        fc.integer({ min: -4_900, max: 4_900 }),
        fc.integer({ min: 5_100, max: 1_000_000 }),
        fc.boolean(),
        (expected, inside, outside, negative) => {
          const e = negative ? -expected : expected;
          expect(withinTolerance(e, e + (Math.abs(e) * inside) / 1_000_000)).toBe(true);
          expect(withinTolerance(e, e + (Math.abs(e) * outside) / 1_000_000)).toBe(false);
          expect(withinTolerance(e, e - (Math.abs(e) * outside) / 1_000_000)).toBe(false);
        },
      ),
    );
    expect(TOLERANCE).toBe(0.005);
  });
});

describe('the statements cross-checks', () => {
  it('gross profit: revenue − gross profit against the filing cost of revenue, 0.4% passes and 0.6% fails', () => {
    const cost = (v: number) => `us-gaap:CostOfRevenue=${v}`;
    const pass = statementFindings(
      { revenue: [figure('d', 1_000_000)], grossProfit: [figure('d', 400_000, cost(602_400))] },
      byId,
    );
    expect(pass).toEqual([]);
    const fail = statementFindings(
      { revenue: [figure('d', 1_000_000)], grossProfit: [figure('d', 400_000, cost(603_600))] },
      byId,
    );
    expect(fail.map((f) => f.check)).toEqual(['gross_profit_arithmetic']);
    expect(fail[0]?.reason).toContain('us-gaap:CostOfRevenue 603600');
    // A bound of revenue (design §18.4) is read too; figures of two filings are never compared.
    expect(
      statementFindings({ revenue: [figure('d', 1_000_000, cost(700_000))], grossProfit: [figure('d', 400_000)] }, byId),
    ).toHaveLength(1);
    expect(
      statementFindings({ revenue: [figure('e', 1_000_000)], grossProfit: [figure('d', 400_000, cost(700_000))] }, byId),
    ).toEqual([]);
  });

  it('balance sheet: assets against liabilities + equity + non-controlling interest, from the latest filing', () => {
    const lines = (assets: number, nci: string | null) => ({
      totalAssets: [figure('d1', 1), figure('d2', assets)],
      totalLiabilities: [figure('d1', 1), figure('d2', 600_000)],
      equity: [figure('d1', 9), figure('d2', 300_000, nci)],
    });
    expect(statementFindings(lines(1_000_000, 'us-gaap:MinorityInterest=100000'), byId)).toEqual([]);
    // The filing's equity with its non-controlling interest, where tagged, is read before the sum.
    const total = 'us-gaap:StockholdersEquityIncludingPortionAttributableToNoncontrollingInterest';
    expect(statementFindings(lines(1_000_000, `us-gaap:MinorityInterest=1 ${total}=400000`), byId)).toEqual([]);
    expect(statementFindings(lines(1_000_000, `${total}=300000`), byId)).toHaveLength(1);
    expect(statementFindings(lines(1_000_000 * 1.004, 'ifrs-full:NoncontrollingInterests=100000'), byId)).toEqual([]);
    const fail = statementFindings(lines(1_000_000, null), byId);
    expect(fail).toEqual([
      {
        check: 'balance_sheet_arithmetic',
        companyId: 'c',
        period: 2023,
        documentId: 'd2',
        reason: 'total assets 1000000, total liabilities 600000 + equity 300000 = 900000 (off by more than 0.5%)',
      },
    ]);
  });

  it('revenue under a tenth of the absolute net income, a loss included', () => {
    expect(statementFindings({ revenue: [figure('d', 100)], netIncome: [figure('d', 1_000)] }, byId)).toEqual([]);
    expect(statementFindings({ revenue: [figure('d', 99)], netIncome: [figure('e', -1_000)] }, byId)).toHaveLength(1);
  });
});
