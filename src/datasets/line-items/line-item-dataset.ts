import { LINE_ITEM_TABLES, type LineItemTableName } from '../../db/schema.js';
import type { Dataset } from '../dataset.js';
import type { FigureRecord } from '../kit/money-figures/figure-record.js';
import { moneyFigureDataset } from '../kit/money-figures/money-figure-dataset.js';
import type { MoneyFigureSpec } from '../kit/money-figures/money-figure-spec.js';
import { lineItemExamples } from './line-item-examples.js';
import { LINE_ITEM_PRICES } from './line-item-prices.js';
import { LINE_ITEMS, type LineItem } from './line-items.js';

/** `gross-profit` → `GrossProfit`: the schema titles and operation ids. */
const pascal = (name: string): string =>
  name
    .split('-')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');

/** `gross-profit` → `gross_profit_points`, which must be one of `LINE_ITEM_TABLES` (migrate creates them). */
export function lineItemTable(name: string): LineItemTableName {
  const table = LINE_ITEM_TABLES.find((t) => t === `${name.replaceAll('-', '_')}_points`);
  if (table === undefined) throw new Error(`line item ${name}: add ${name.replaceAll('-', '_')}_points to LINE_ITEM_TABLES`);
  return table;
}

/** `us-gaap:GrossProfit` → `GrossProfit`, for the words of a rule. */
const local = (concept: string): string => concept.slice(concept.indexOf(':') + 1);

/** How a line item's concept and period are chosen, in words: shown under its filed figures. */
function conceptRule(item: LineItem): string {
  const gaap = item.concepts['us-gaap'].map(local).join(', else ');
  const ifrs = item.concepts['ifrs-full'].map(local).join(', else ');
  const period =
    item.period === 'year'
      ? 'the reporting period is the calendar year in which the fiscal year ends (one ending by 7 January counts to the year before).'
      : "the figure is the balance at one of the filer's fiscal-year ends, and the reporting period is the calendar year of that date (one by 7 January counts to the year before).";
  return `The concept is ${gaap} (for IFRS ${ifrs}); ${period}`;
}

/** The kit's spec of a line item: its table, point ids, bundle file and words all follow from the row. */
export function lineItemSpec(item: LineItem): MoneyFigureSpec {
  const noun = item.metric.toLowerCase();
  const sign = item.signed ? '; negative where the statement shows it so' : '';
  const perShare = item.unit === 'per share';
  return {
    dataset: item.name,
    table: lineItemTable(item.name),
    metric: item.metric,
    pointKey: item.name,
    mockSeed: item.name,
    mockSign: item.signed ? 'either' : 'positive',
    prices: LINE_ITEM_PRICES,
    bundleFile: `${item.name.replaceAll('-', '_')}.csv`,
    ...(item.period === 'year end' ? { period: 'year end' as const } : {}),
    ...(perShare ? { perShare: true as const } : {}),
    filed: { noun, concepts: item.concepts, ...(item.companions === undefined ? {} : { companions: item.companions }) },
    wording: {
      recordTitle: `${pascal(item.name)}Record`,
      provenanceTitle: `${pascal(item.name)}Provenance`,
      value: perShare
        ? `${item.metric} in USD per share, rounded half away from zero to 4 decimals${sign}.`
        : `${item.metric} in USD${sign}.`,
      originalValue: perShare
        ? `${item.metric} as reported, in original_unit${sign}.`
        : `${item.metric} as reported, in original_ccy${sign}.`,
      offerLabel: noun,
      concept: `${noun} concept`,
      conceptRule: conceptRule(item),
    },
  };
}

/** A line item as a dataset (design §18): `GET /api/v1/{name}`, priced and bought as revenues. */
export function lineItemDataset(item: LineItem): Dataset<FigureRecord> {
  const unit = item.unit === 'per share' ? 'in USD per share' : 'in USD';
  const examples = lineItemExamples(item, `get${pascal(item.name)}`);
  return moneyFigureDataset(lineItemSpec(item), {
    ...(examples === undefined ? {} : { openApiExamples: examples }),
    label: item.metric,
    subscription: 'fundamentals',
    route: {
      path: `/api/v1/${item.name}`,
      operationId: `get${pascal(item.name)}`,
      periodsOperationId: `get${pascal(item.name)}Periods`,
      summary: `${item.metric} of one company for one reporting period, ${unit}`,
      description:
        'Identifier precedence: company_id > isin > lei > ticker (+ mic_code). Lower identifiers given beside a higher one are validated, then ignored. ' +
        `${item.signed ? 'A figure may be negative. ' : ''}Costs 25 credits for the first access to a company-period, 1 for a repeat, 1 for a 204; errors are free.`,
      tag: item.name,
      tagDescription: `${item.metric} data points`,
      ok: `Every ${item.metric.toLowerCase()} data point of the company-period (first reported and restated).`,
      noData: `The company and period exist but no ${item.metric.toLowerCase()} figure was published for it.`,
      forbidden: 'The account has no subscription to the fundamentals datasets.',
    },
  });
}

/** Every line item's dataset, in the table's order. */
export const LINE_ITEM_DATASETS: readonly Dataset[] = LINE_ITEMS.map(lineItemDataset);
