/**
 * A dataset's records read as figures for charts, tables and downloads. Every dataset's record
 * has `reporting_period`, `value` and `traceability_source_url`; the rest is read when present
 * (`scope`, `metric`, `unit` or `ccy`, `original_value` and `original_ccy`, `year_of_disclosure`),
 * so a new dataset is charted without a change here.
 */
export interface Figure {
  readonly period: number;
  /** What the figure is, within its dataset: a scope, a metric, or the dataset's label. */
  readonly series: string;
  readonly value: number;
  readonly unit: string;
  /** The value and currency as reported, when the dataset converts (revenues). */
  readonly original: { value: number | null; currency: string } | null;
  readonly disclosedIn: number | null;
  /** `first` as first reported; `restated` a later document with another value; `repeated` the same value again. */
  readonly disclosure: 'first' | 'restated' | 'repeated';
  /** The trace page's path, `/trace/{id}`. */
  readonly tracePath: string;
}

const SCOPE_NAMES: Record<string, string> = {
  '1': 'Scope 1',
  '2-location': 'Scope 2 (location-based)',
  '2-market': 'Scope 2 (market-based)',
  '3': 'Scope 3',
};

function text(record: Record<string, unknown>, name: string): string | undefined {
  const v = record[name];
  return typeof v === 'string' ? v : undefined;
}

function numberOf(record: Record<string, unknown>, name: string): number | null {
  const v = record[name];
  return typeof v === 'number' ? v : null;
}

/** The path of a trace URL (`{public URL}/trace/{id}`): console links stay on the host that served them. */
export function tracePathOf(url: string): string {
  const at = url.lastIndexOf('/trace/');
  return at < 0 ? url : url.slice(at);
}

/** The figures of one period's records, in the records' order (the API's). */
export function figuresOf(label: string, period: number, records: readonly unknown[]): Figure[] {
  const seen = new Map<string, number>();
  return records.flatMap((r) => {
    if (typeof r !== 'object' || r === null) return [];
    const record = r as Record<string, unknown>;
    const value = numberOf(record, 'value');
    const url = text(record, 'traceability_source_url');
    if (value === null || url === undefined) return [];
    const scope = text(record, 'scope');
    const series = scope !== undefined ? (SCOPE_NAMES[scope] ?? `Scope ${scope}`) : (text(record, 'metric') ?? label);
    const before = seen.get(series);
    seen.set(series, value);
    const originalCcy = text(record, 'original_ccy');
    return [
      {
        period,
        series,
        value,
        unit: text(record, 'unit') ?? text(record, 'ccy') ?? '',
        original: originalCcy === undefined ? null : { value: numberOf(record, 'original_value'), currency: originalCcy },
        disclosedIn: numberOf(record, 'year_of_disclosure'),
        disclosure: before === undefined ? 'first' : before === value ? 'repeated' : 'restated',
        tracePath: tracePathOf(url),
      },
    ];
  });
}

/** The figure a chart shows for each series and period: the latest disclosed. */
export function latestFigures(figures: readonly Figure[]): Figure[] {
  const latest = new Map<string, Figure>();
  for (const f of figures) latest.set(`${f.series}\u0000${f.period}`, f);
  return [...latest.values()];
}
