/**
 * Reading a source's emission rows as design §13.6 asks: only a source's total for a scope is a
 * figure, never a sub-line (a gas, a business line, a boundary subset). Pure functions, so the
 * rules are tested on their own and the demo builder only applies them.
 */

export type Scope = '1' | '2-location' | '2-market' | '3';

/** What one row is for its scope: the total, an unlabelled row, or a part of the total. */
export type RowRole = 'total' | 'plain' | 'sub';

/** One os-climate row of a scope: its labels, as the sheet gives them. */
export interface ScopeRow {
  metric: string;
  submetric: string;
  boundary: string;
  row: number;
}

/** Labels a source gives a total ("Total", "Scope 3 combined", "all categories", "Sum total…"). */
const TOTAL_LABEL = /^(total|combined|all|sum total|gross)\b/i;
/** A boundary that is the whole company rather than a part of it. */
const WHOLE_BOUNDARY = /^(total|global|gross|enlarged group)$/i;
const LOCATION = /^location([- ]?based)?\*?$/i;
const MARKET = /^market([- ]?based)?\*?$/i;

/**
 * The scope and role of an os-climate row (`s1`, `s2`, `s3` with their submetric and boundary),
 * or undefined for anything else (intensities, s1s2 sums, production, pdf rows). A Scope 2 row is
 * location- or market-based only when its submetric says so; one that says neither has no scope.
 */
export function classifyRow(metric: string, submetric: string, boundary: string): { scope: Scope; role: RowRole } | undefined {
  const sub = submetric.trim();
  const bound = boundary.trim();
  const boundaryWhole = bound === '' || WHOLE_BOUNDARY.test(bound);
  if (metric === 's2') {
    const scope: Scope | undefined = LOCATION.test(sub) ? '2-location' : MARKET.test(sub) ? '2-market' : undefined;
    if (scope === undefined) return undefined;
    return { scope, role: boundaryWhole ? 'total' : 'sub' };
  }
  if (metric !== 's1' && metric !== 's3') return undefined;
  const scope: Scope = metric === 's1' ? '1' : '3';
  if (!boundaryWhole) return { scope, role: 'sub' };
  if (sub === '') return { scope, role: bound === '' ? 'plain' : 'total' };
  return { scope, role: TOTAL_LABEL.test(sub) ? 'total' : 'sub' };
}

/** A row's value for one year, with its role. */
export interface YearValue {
  role: RowRole;
  value: string;
  row: number;
  label: string;
}

export type TotalPick = { ok: true; value: string; row: number } | { ok: false; reason: string };

/**
 * The source's total for one scope and year among a report's rows: the row labelled total, else
 * the one unlabelled row; never a sub-line, and nothing when the candidates disagree.
 */
export function pickTotal(values: readonly YearValue[]): TotalPick | undefined {
  if (values.length === 0) return undefined;
  for (const role of ['total', 'plain'] as const) {
    const rows = values.filter((v) => v.role === role);
    if (rows.length === 0) continue;
    const distinct = new Set(rows.map((r) => Number(r.value)));
    const [first] = rows;
    if (distinct.size === 1 && first !== undefined) return { ok: true, value: first.value, row: first.row };
    return {
      ok: false,
      reason: `${rows.length} ${role === 'total' ? 'total' : 'unlabelled'} rows disagree (rows ${rows.map((r) => r.row).join(', ')})`,
    };
  }
  const labels = [...new Set(values.map((v) => v.label))].join('; ');
  return { ok: false, reason: `no total row, only sub-lines (${labels})` };
}

/**
 * A spreadsheet number as the report prints it: Excel keeps binary floats, so 83.5736201166990
 * may come out as 83.573620116699004; 15 significant digits (what Excel shows) drop the noise.
 */
export function asPrinted(raw: string): string {
  const n = Number(raw);
  if (!Number.isFinite(n) || /^[0-9]+$/.test(raw.trim())) return raw.trim();
  return n.toPrecision(15);
}

/** A report one Carbon Gap row names, with the page it gives. */
export interface NamedReport {
  title: string;
  url: string;
  page: string | null;
}

const HTTP_RE = /https?:\/\/[^\s,;"]+/;
const ANY_URL_RE = /(https?|file):\/\/[^\s,;"]+/;
const YEARS = ['2019', '2020'] as const;

/**
 * The reports a Carbon Gap row names, by the year whose figures each holds (design §13.6: each
 * figure cites the report the source names for its year). The column lists one report, or several
 * separated by ";" ("2019, page 49 https://… ; 2020, page 1 https://…"): a report is for the year
 * its text names (2019 or 2020, alone); when no report names a year, the first is 2020's (the
 * database's emission data are 2020's). A "scope 3" report is for Scope 3 only. A local file
 * (file://) is no report a reader can open: its year is left without one.
 */
export function namedReports(datasource: string, company: string): Map<string, NamedReport | { missing: string }> {
  const segments: string[] = [];
  let pending = '';
  for (const part of datasource.split(';')) {
    // A part without an address is the title of the next one ("Annual Report 2021, page 7 ; https://…").
    if (!ANY_URL_RE.test(part)) pending += `${part} `;
    else {
      segments.push(pending + part);
      pending = '';
    }
  }
  const namesYear = (segment: string) =>
    YEARS.filter((y) => new RegExp(`(?<![0-9])${y}(?![0-9])`).test(segment.split(ANY_URL_RE)[0] ?? ''));
  const anyYear = segments.some((s) => namesYear(s).length === 1);
  const byKey = new Map<string, NamedReport | { missing: string }>();
  for (const segment of segments) {
    const anyUrl = ANY_URL_RE.exec(segment)?.[0] ?? '';
    const before = segment.slice(0, segment.indexOf(anyUrl));
    const years = namesYear(segment);
    const scope3 = /scope\s*3/i.test(before);
    const year = years.length === 1 ? years[0] : anyYear ? undefined : '2020';
    const key = scope3 ? '2020|3' : year === undefined ? undefined : `${year}|`;
    if (key === undefined || byKey.has(key)) continue;
    const url = HTTP_RE.exec(segment)?.[0];
    if (url === undefined) {
      byKey.set(key, { missing: `the report named for ${key.startsWith('2019') ? 2019 : 2020} is a local file (${anyUrl})` });
      continue;
    }
    const page = /page\s*([0-9]+(?:\s*[-–]\s*[0-9]+)?)/i.exec(before)?.[1] ?? null;
    let title = before
      .replace(/,?\s*page\s*[0-9].*$/is, '')
      .replace(/[,\s]+$/, '')
      .trim();
    if (/^(20[0-9]{2})?$/.test(title)) {
      title = `${company} ${year ?? '2020'} report (${new URL(url).hostname})`;
    }
    byKey.set(key, { title, url, page: page === null ? null : `p. ${page}` });
  }
  return byKey;
}

/** The report a Carbon Gap 2020 figure of `scope` cites, or why it has none. */
export function reportFor(
  reports: Map<string, NamedReport | { missing: string }>,
  scope: Scope,
): NamedReport | { missing: string } {
  return (
    (scope === '3' ? reports.get('2020|3') : undefined) ??
    reports.get('2020|') ?? { missing: 'the source names no report for 2020' }
  );
}
