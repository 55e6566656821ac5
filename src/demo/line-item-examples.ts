import { EXAMPLE_COMPANIES, type ExampleFigure, type LineItemExamples } from '../datasets/line-items/line-item-examples.js';
import { disclosureYear } from '../db/disclosure.js';
import type { FigureSpec } from '../ingest/core/figure-spec.js';
import type { DemoFiledFigure } from '../ingest/demo/demo-part.js';
import { toUsd } from '../money/normalize.js';
import { PER_SHARE_USD_STEP, perShareMillionths, perShareNumber } from '../money/per-share.js';

/**
 * The line items' OpenAPI examples, from the demo's own rows (`demo/line-item-examples.json`,
 * written with the bundle): what the demo answers Apple's and adidas's calls, so that
 * `test/openapi.examples.test.ts` replays them. Values as the import stores them: converted by the
 * yearly rate, a per-share one rounded to 4 decimals.
 */
export function lineItemExamples(
  specs: readonly FigureSpec[],
  figuresBySpec: readonly (readonly DemoFiledFigure[])[],
  documents: ReadonlyMap<string, { companyId: string; publishedOn: string; reportingPeriod: number }>,
  rateOf: (currency: string, year: number) => string | undefined,
  lineItems: ReadonlySet<string>,
): LineItemExamples {
  // A company's periods: its financial documents' and the item's figures' (the kit's loader), newest first.
  const periodsOf = (companyId: string, rows: readonly DemoFiledFigure[]) =>
    [
      ...new Set([
        ...[...documents.values()].filter((d) => d.companyId === companyId).map((d) => d.reportingPeriod),
        ...rows.filter((r) => r.companyId === companyId).map((r) => r.period),
      ]),
    ].sort((a, b) => b - a);
  const out: LineItemExamples = {};
  for (const [i, spec] of specs.entries()) {
    if (!lineItems.has(spec.name)) continue;
    const rows = figuresBySpec[i] ?? [];
    const of = (companyId: string, period: number): ExampleFigure[] =>
      rows
        .filter((r) => r.companyId === companyId && r.period === period)
        .map((r) => exampleFigure(spec, r, documents, rateOf))
        .sort((a, b) => a.year_of_disclosure - b.year_of_disclosure || (a.document_id < b.document_id ? -1 : 1));
    out[spec.name] = {
      apple2025: of(EXAMPLE_COMPANIES.apple, 2025),
      apple2024: of(EXAMPLE_COMPANIES.apple, 2024),
      adidas2023: of(EXAMPLE_COMPANIES.adidas, 2023),
      applePeriods: periodsOf(EXAMPLE_COMPANIES.apple, rows),
      adidasPeriods: periodsOf(EXAMPLE_COMPANIES.adidas, rows),
    };
  }
  return out;
}

function exampleFigure(
  spec: FigureSpec,
  r: DemoFiledFigure,
  documents: ReadonlyMap<string, { publishedOn: string; reportingPeriod: number }>,
  rateOf: (currency: string, year: number) => string | undefined,
): ExampleFigure {
  const perShare = spec.perShare === true;
  const stored = perShare ? (perShareMillionths(r.value) ?? Number.NaN) : Number(r.value);
  const currency = perShare ? r.currency.replace('/share', '') : r.currency;
  const usd = toUsd(stored, currency, rateOf(currency, r.period) ?? '1', perShare ? PER_SHARE_USD_STEP : 1);
  const document = documents.get(r.documentId);
  return {
    point_id: spec.pointId(r.documentId, r.period),
    year_of_disclosure: disclosureYear(document?.publishedOn ?? '', document?.reportingPeriod ?? r.period),
    reporting_period: r.period,
    value: perShare ? perShareNumber(usd) : usd,
    original_value: perShare ? perShareNumber(stored) : stored,
    original: r.currency,
    document_id: r.documentId,
  };
}
