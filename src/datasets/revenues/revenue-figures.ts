import type { FigureSpec } from '../../ingest/core/figure-spec.js';
import { pointId } from '../../ingest/core/rates.js';
import { figureBundleColumns } from '../kit/money-figures/figure-bundle.js';

/**
 * Revenue from filings (design §10.3, §14.2). A total comes before any part of it: a utility's
 * total operating revenues (`RegulatedAndUnregulatedOperatingRevenue`) before its contract
 * revenue, a bank's total net revenue before anything narrower. Never the largest candidate: a
 * contract revenue can exceed the total it is part of (Southern 2024), a card network's gross
 * revenue its net (Mastercard 2021). Component concepts (goods only, services only) are absent on
 * purpose: taken alone they understate a company's revenue.
 */
export const revenueFigures: FigureSpec = {
  name: 'revenues',
  metric: 'Revenue',
  noun: 'revenue',
  concepts: {
    'us-gaap': [
      'us-gaap:Revenues',
      'us-gaap:RegulatedAndUnregulatedOperatingRevenue',
      'us-gaap:RevenuesNetOfInterestExpense',
      'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax',
      'us-gaap:RevenueFromContractWithCustomerIncludingAssessedTax',
      'us-gaap:SalesRevenueNet',
    ],
    'ifrs-full': ['ifrs-full:Revenue', 'ifrs-full:RevenueFromContractsWithCustomers'],
  },
  // A revenue under the filing's own cost of revenue or operating income, beside a larger
  // candidate, is a sub-line (General Mills' `Revenues` FY2023, Eaton's `Revenues` of 0).
  guard: {
    'us-gaap': ['us-gaap:CostOfRevenue', 'us-gaap:CostOfGoodsAndServicesSold', 'us-gaap:OperatingIncomeLoss'],
    'ifrs-full': ['ifrs-full:CostOfSales', 'ifrs-full:ProfitLossFromOperatingActivities'],
  },
  table: 'revenue_points',
  bundleFile: 'revenues.csv',
  bundleColumns: figureBundleColumns({ bundleCurrencyColumn: 'currency' }),
  pointId,
};
