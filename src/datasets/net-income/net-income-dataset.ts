import type { MoneyRecord } from '../kit/money-figures/figure-record.js';
import { moneyFigureDataset } from '../kit/money-figures/money-figure-dataset.js';
import type { MoneyFigureSpec } from '../kit/money-figures/money-figure-spec.js';
import { netIncomeExamples } from './net-income-examples.js';
import { NET_INCOME_PRICES } from './net-income-prices.js';

/** One net income record: a revenue record's shape with its own metric (design §17). */
export type NetIncomeRecord = MoneyRecord<'Net Income'>;

/**
 * Net income from filings (design §17): the profit attributable to the parent's owners where the
 * filing separates it (`NetIncomeLoss`, IFRS `ProfitLossAttributableToOwnersOfParent`), else the
 * profit of the whole group (`ProfitLoss`). A loss is a negative figure.
 */
export const NET_INCOME_FIGURES: MoneyFigureSpec & { metric: 'Net Income'; perShare?: undefined } = {
  dataset: 'net-income',
  table: 'net_income_points',
  metric: 'Net Income',
  pointKey: 'net-income',
  mockSeed: 'net-income',
  mockSign: 'either',
  prices: NET_INCOME_PRICES,
  bundleFile: 'net_income.csv',
  filed: {
    noun: 'net income',
    concepts: {
      'us-gaap': ['us-gaap:NetIncomeLoss', 'us-gaap:ProfitLoss'],
      'ifrs-full': ['ifrs-full:ProfitLossAttributableToOwnersOfParent', 'ifrs-full:ProfitLoss'],
    },
  },
  wording: {
    recordTitle: 'NetIncomeRecord',
    provenanceTitle: 'NetIncomeProvenance',
    value: 'Net income in USD; negative for a loss.',
    originalValue: 'Net income as reported, in original_ccy; negative for a loss.',
    offerLabel: 'net income',
    concept: 'net income concept',
    conceptRule:
      'The concept is NetIncomeLoss, else ProfitLoss (for IFRS ProfitLossAttributableToOwnersOfParent, else ProfitLoss); the reporting period is the calendar year in which the fiscal year ends (one ending by 7 January counts to the year before).',
  },
};

/** Net income in USD: `GET /api/v1/net-income`. */
export const netIncome = moneyFigureDataset(NET_INCOME_FIGURES, {
  label: 'Net income',
  subscription: 'fundamentals',
  route: {
    path: '/api/v1/net-income',
    operationId: 'getNetIncome',
    periodsOperationId: 'getNetIncomePeriods',
    summary: 'Net income of one company for one reporting period, in USD',
    description:
      'Identifier precedence: company_id > isin > lei > ticker (+ mic_code). Lower identifiers given beside a higher one are validated, then ignored. ' +
      'A loss is a negative value. Costs 25 credits for the first access to a company-period, 1 for a repeat, 1 for a 204; errors are free.',
    tag: 'net-income',
    tagDescription: 'Net income data points',
    ok: 'Every net income data point of the company-period (first reported and restated).',
    noData: 'The company and period exist but no net income figure was published for it.',
    forbidden: 'The account has no subscription to the fundamentals datasets.',
  },
  openApiExamples: netIncomeExamples,
});
