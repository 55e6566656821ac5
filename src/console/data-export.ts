import type { BoughtPeriod } from './bought-data.js';

/** One row of a download: a bought figure, flat. */
export interface ExportRow {
  dataset: string;
  company_id: string;
  company_name: string;
  ticker: string | null;
  reporting_period: number;
  figure: string;
  value: number;
  unit: string;
  original_value: number | null;
  original_ccy: string | null;
  year_of_disclosure: number | null;
  disclosure: string;
  traceability_source_url: string;
}

const COLUMNS: ReadonlyArray<keyof ExportRow> = [
  'dataset',
  'company_id',
  'company_name',
  'ticker',
  'reporting_period',
  'figure',
  'value',
  'unit',
  'original_value',
  'original_ccy',
  'year_of_disclosure',
  'disclosure',
  'traceability_source_url',
];

/** The bought figures as download rows, links absolute (the file leaves the site). */
export function exportRows(bought: readonly BoughtPeriod[], publicUrl: string): ExportRow[] {
  return bought.flatMap((b) =>
    b.figures.map((f) => ({
      dataset: b.dataset,
      company_id: b.purchase.companyId,
      company_name: b.purchase.companyName,
      ticker: b.purchase.ticker,
      reporting_period: f.period,
      figure: f.series,
      value: f.value,
      unit: f.unit,
      original_value: f.original?.value ?? null,
      original_ccy: f.original?.currency ?? null,
      year_of_disclosure: f.disclosedIn,
      disclosure: f.disclosure,
      traceability_source_url: publicUrl + f.tracePath,
    })),
  );
}

/**
 * A CSV cell (RFC 4180): quoted when it holds a comma, quote or line break. A text cell that a
 * spreadsheet would run as a formula (= + - @, tab, carriage return first) is prefixed with `'`.
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function toCsv(rows: readonly ExportRow[]): string {
  const lines = [COLUMNS.join(',')];
  for (const r of rows) lines.push(COLUMNS.map((c) => csvCell(r[c])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
