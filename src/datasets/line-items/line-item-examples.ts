import { readFileSync } from 'node:fs';
import type { LineItem } from './line-items.js';

/** One example figure as the API answers it, but for what the dataset adds (metric, company, trace link). */
export interface ExampleFigure {
  point_id: string;
  year_of_disclosure: number;
  reporting_period: number;
  value: number;
  original_value: number;
  /** The currency as reported; a per-share figure's currency per share (`EUR/share`). */
  original: string;
  document_id: string;
}

/**
 * Each line item's example figures: Apple's fiscal 2025 and 2024, adidas's 2023, in API order; and
 * each company's periods as the item answers them (its financial documents' and its figures').
 */
export type LineItemExamples = Record<
  string,
  {
    apple2025: ExampleFigure[];
    apple2024: ExampleFigure[];
    adidas2023: ExampleFigure[];
    applePeriods: number[];
    adidasPeriods: number[];
  }
>;

/** Apple Inc. and adidas AG in the demo: the companies whose figures the OpenAPI examples show. */
export const EXAMPLE_COMPANIES = {
  apple: '881c005d-55e9-5f65-b1af-0632fd1b08ab',
  adidas: 'eec95766-1e63-581e-bc61-c45da5fc31ea',
};

/** What the demo answers the batch job for adidas's 2021: no processed document covers it. */
const adidasNoPeriod = (periods: number[]) => ({
  status: 404,
  detail:
    'No data for reporting period 2021 of the given ticker on the given mic_code: not covered by any processed document. ' +
    `Available periods: ${periods.join(', ')} (the free periods endpoint lists them).`,
  available_periods: periods,
});

/**
 * The demo's figures of every line item, written with the bundle (`demo/line-item-examples.json`,
 * by `node dist/demo/build-bundle.js`): generated, never written by hand. Without the file (a
 * deployment that left the demo out) the document shows no example for the line items.
 */
function demoExamples(): LineItemExamples | undefined {
  try {
    return JSON.parse(
      readFileSync(new URL('../../../demo/line-item-examples.json', import.meta.url), 'utf8'),
    ) as LineItemExamples;
  } catch {
    return undefined;
  }
}

const EXAMPLES = demoExamples();

/**
 * A line item's OpenAPI examples (its call, periods, history and batch): the demo's real answers
 * for Apple and adidas, which `test/openapi.examples.test.ts` replays.
 */
export function lineItemExamples(
  item: LineItem,
  operationId: string,
): ((publicUrl: string) => Record<string, unknown>) | undefined {
  const figures = EXAMPLES?.[item.name];
  if (figures === undefined) return undefined;
  return (publicUrl) => {
    const records = (list: ExampleFigure[], companyId: string) =>
      list.map((f) => ({
        year_of_disclosure: f.year_of_disclosure,
        reporting_period: f.reporting_period,
        metric: item.metric,
        value: f.value,
        ...(item.unit === 'per share' ? { unit: 'USD/share' } : { ccy: 'USD' }),
        original_value: f.original_value,
        ...(item.unit === 'per share' ? { original_unit: f.original } : { original_ccy: f.original }),
        company_id: companyId,
        document_id: f.document_id,
        traceability_source_url: `${publicUrl}/trace/${f.point_id}`,
      }));
    const fy2025 = records(figures.apple2025, EXAMPLE_COMPANIES.apple);
    const fy2024 = records(figures.apple2024, EXAMPLE_COMPANIES.apple);
    const adidas = records(figures.adidas2023, EXAMPLE_COMPANIES.adidas);
    return {
      [operationId]: fy2025,
      [`${operationId}Periods`]: { company_id: EXAMPLE_COMPANIES.apple, reporting_periods: figures.applePeriods },
      [`${operationId}History`]: {
        company_id: EXAMPLE_COMPANIES.apple,
        periods: [
          { reporting_period: 2025, records: fy2025 },
          { reporting_period: 2024, records: fy2024 },
        ],
      },
      [`${operationId}Batch`]: {
        results: [
          { status: fy2025.length === 0 ? 204 : 200, data: fy2025 },
          { status: adidas.length === 0 ? 204 : 200, data: adidas },
          adidasNoPeriod(figures.adidasPeriods),
        ],
      },
    };
  };
}
