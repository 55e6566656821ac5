/**
 * The statements' main lines beyond revenue and net income (design §18): each a row — name,
 * metric, concepts, period kind and unit — that the kit turns into a dataset
 * (`lineItemDataset`). A new line item is a row here and its table's name in `LINE_ITEM_TABLES`
 * (src/db/schema.ts); its table, route, OpenAPI entry, bundle file, ingest and demo follow.
 */
export interface LineItem {
  /** The dataset's name: its path (`/api/v1/{name}`), purchase key and ledger endpoint. */
  readonly name: string;
  /** The records' `metric` and the trace page's title. */
  readonly metric: string;
  /** The concepts read, per taxonomy, the first present taken (design §10.3). */
  readonly concepts: { readonly 'us-gaap': readonly string[]; readonly 'ifrs-full': readonly string[] };
  /** `year`: an amount over the fiscal year; `year end`: a balance at a fiscal-year end (design §18.1). */
  readonly period: 'year' | 'year end';
  /** `money`: a whole amount; `per share`: a decimal per share (design §18.2). */
  readonly unit: 'money' | 'per share';
  /**
   * Other lines of the filing stored beside each figure for the cross-checks of `check-data`
   * (design §18.5), per taxonomy; they never choose the figure.
   */
  readonly companions?: { readonly 'us-gaap': readonly string[]; readonly 'ifrs-full': readonly string[] };
  /** Whether a figure may be negative (a loss, an outflow), for the test token's figures and the docs. */
  readonly signed: boolean;
}

export const LINE_ITEMS: readonly LineItem[] = [
  {
    name: 'gross-profit',
    metric: 'Gross Profit',
    concepts: { 'us-gaap': ['us-gaap:GrossProfit'], 'ifrs-full': ['ifrs-full:GrossProfit'] },
    companions: {
      'us-gaap': ['us-gaap:CostOfRevenue', 'us-gaap:CostOfGoodsAndServicesSold'],
      'ifrs-full': ['ifrs-full:CostOfSales'],
    },
    period: 'year',
    unit: 'money',
    signed: true,
  },
  {
    name: 'operating-income',
    metric: 'Operating Income',
    concepts: { 'us-gaap': ['us-gaap:OperatingIncomeLoss'], 'ifrs-full': ['ifrs-full:ProfitLossFromOperatingActivities'] },
    period: 'year',
    unit: 'money',
    signed: true,
  },
  {
    name: 'pretax-income',
    metric: 'Income Before Taxes',
    concepts: {
      'us-gaap': [
        'us-gaap:IncomeLossFromContinuingOperationsBeforeIncomeTaxesExtraordinaryItemsNoncontrollingInterest',
        'us-gaap:IncomeLossFromContinuingOperationsBeforeIncomeTaxesMinorityInterestAndIncomeLossFromEquityMethodInvestments',
      ],
      'ifrs-full': ['ifrs-full:ProfitLossBeforeTax'],
    },
    period: 'year',
    unit: 'money',
    signed: true,
  },
  {
    name: 'eps-diluted',
    metric: 'Diluted EPS',
    concepts: { 'us-gaap': ['us-gaap:EarningsPerShareDiluted'], 'ifrs-full': ['ifrs-full:DilutedEarningsLossPerShare'] },
    period: 'year',
    unit: 'per share',
    signed: true,
  },
  {
    name: 'total-assets',
    metric: 'Total Assets',
    concepts: { 'us-gaap': ['us-gaap:Assets'], 'ifrs-full': ['ifrs-full:Assets'] },
    period: 'year end',
    unit: 'money',
    signed: false,
  },
  {
    name: 'total-liabilities',
    metric: 'Total Liabilities',
    concepts: { 'us-gaap': ['us-gaap:Liabilities'], 'ifrs-full': ['ifrs-full:Liabilities'] },
    period: 'year end',
    unit: 'money',
    signed: false,
  },
  {
    name: 'equity',
    metric: "Shareholders' Equity",
    concepts: { 'us-gaap': ['us-gaap:StockholdersEquity'], 'ifrs-full': ['ifrs-full:EquityAttributableToOwnersOfParent'] },
    companions: {
      'us-gaap': ['us-gaap:MinorityInterest', 'us-gaap:StockholdersEquityIncludingPortionAttributableToNoncontrollingInterest'],
      'ifrs-full': ['ifrs-full:NoncontrollingInterests', 'ifrs-full:Equity'],
    },
    period: 'year end',
    unit: 'money',
    signed: true,
  },
  {
    name: 'cash',
    metric: 'Cash and Cash Equivalents',
    concepts: { 'us-gaap': ['us-gaap:CashAndCashEquivalentsAtCarryingValue'], 'ifrs-full': ['ifrs-full:CashAndCashEquivalents'] },
    period: 'year end',
    unit: 'money',
    signed: false,
  },
  {
    name: 'operating-cash-flow',
    metric: 'Operating Cash Flow',
    concepts: {
      'us-gaap': ['us-gaap:NetCashProvidedByUsedInOperatingActivities'],
      'ifrs-full': ['ifrs-full:CashFlowsFromUsedInOperatingActivities'],
    },
    period: 'year',
    unit: 'money',
    signed: true,
  },
  {
    name: 'capital-expenditure',
    metric: 'Capital Expenditure',
    concepts: {
      'us-gaap': ['us-gaap:PaymentsToAcquirePropertyPlantAndEquipment'],
      'ifrs-full': ['ifrs-full:PurchaseOfPropertyPlantAndEquipmentClassifiedAsInvestingActivities'],
    },
    period: 'year',
    unit: 'money',
    signed: false,
  },
];
