import type { MoneyRecord } from '../kit/money-figures/figure-record.js';
import { moneyFigureDataset } from '../kit/money-figures/money-figure-dataset.js';
import type { MoneyFigureSpec } from '../kit/money-figures/money-figure-spec.js';
import { revenueExamples } from './revenue-examples.js';
import { REVENUE_PRICES } from './revenue-prices.js';

/** One revenue record (design §1.6). */
export type RevenueRecord = MoneyRecord<'Total Revenue'>;

/**
 * What the kit needs to serve revenues: its figure table, metric, prices, the concepts it reads
 * from filings, and its words.
 */
export const REVENUE_FIGURES: MoneyFigureSpec & { metric: 'Total Revenue'; perShare?: undefined } = {
  dataset: 'revenues',
  table: 'revenue_points',
  metric: 'Total Revenue',
  pointKey: 'revenue',
  mockSeed: 'revenue',
  prices: REVENUE_PRICES,
  // The bundle file's columns and its place in every summary are a contract (design §5).
  bundleFile: 'revenues.csv',
  bundleCurrencyColumn: 'currency',
  bundleAlwaysListed: true,
  /**
   * Revenue from filings (design §10.3, §14.2). A total comes before any part of it: a utility's
   * total operating revenues (`RegulatedAndUnregulatedOperatingRevenue`) before its contract
   * revenue, a bank's total net revenue before anything narrower. Never the largest candidate: a
   * contract revenue can exceed the total it is part of (Southern 2024), a card network's gross
   * revenue its net (Mastercard 2021). Component concepts (goods only, services only) are absent on
   * purpose: taken alone they understate a company's revenue.
   */
  filed: {
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
  },
  wording: {
    recordTitle: 'RevenueRecord',
    provenanceTitle: 'Provenance',
    value: 'Total revenue in USD.',
    originalValue: 'Revenue as reported, in original_ccy.',
    offerLabel: 'revenues',
    concept: 'revenue concept',
    conceptRule:
      'The concept is the first present of the revenue concepts in order of preference (Revenues, RegulatedAndUnregulatedOperatingRevenue, RevenuesNetOfInterestExpense, RevenueFromContractWithCustomerExcludingAssessedTax, RevenueFromContractWithCustomerIncludingAssessedTax, SalesRevenueNet; for IFRS Revenue, then RevenueFromContractsWithCustomers); the reporting period is the calendar year in which the fiscal year ends (one ending by 7 January counts to the year before).',
  },
};

/** Total revenue in USD (the spec's dataset): `GET /api/v1/revenues`. */
export const revenues = moneyFigureDataset(REVENUE_FIGURES, {
  label: 'Revenues',
  subscription: 'revenues',
  route: {
    path: '/api/v1/revenues',
    operationId: 'getRevenues',
    periodsOperationId: 'getRevenuePeriods',
    summary: 'Total revenue of one company for one reporting period, in USD',
    description:
      'Identifier precedence: company_id > isin > lei > ticker (+ mic_code). Lower identifiers given beside a higher one are validated, then ignored. ' +
      'Costs 25 credits for the first access to a company-period, 1 for a repeat, 1 for a 204; errors are free.',
    tag: 'revenues',
    tagDescription: 'Revenue data points',
    ok: 'Every revenue data point of the company-period (first reported and restated).',
    noData: 'The company and period exist but no revenue figure was published for it.',
    forbidden: 'The account has no subscription to the revenues dataset.',
  },
  openApiExamples: revenueExamples,
});
