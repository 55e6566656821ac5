import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DemoCompany } from './companies.js';
import { readSource } from './csv.js';
import { CatalogMatcher, type GhgCompanyRef } from './ghg-match.js';
import { asPrinted, classifyRow, namedReports, pickTotal, reportFor, type Scope, type YearValue } from './ghg-totals.js';
import { nameUuid } from './name-uuid.js';
import { readSheet } from './xlsx.js';

type Unit = 't' | 'kt' | 'Mt';

/** One figure as a source gives it, before matching. */
interface SourceFigure {
  source: string;
  company: GhgCompanyRef;
  period: number;
  scope: Scope;
  value: string;
  unit: Unit;
  url: string;
  title: string;
  page: string | null;
  /** Report vintage within the source (os-climate has several per company). */
  vintage: string;
  /** Orders a company's reports of one period (os-climate's report date); empty when unknown. */
  order: string;
}

export interface GhgDocument {
  id: string;
  companyId: string;
  title: string;
  sourceUrl: string;
  publishedOn: string;
  reportingPeriod: number;
}

export interface GhgFigure {
  companyId: string;
  documentId: string;
  period: number;
  scope: Scope;
  value: string;
  unit: Unit;
  page: string;
}

const HTTP_RE = /https?:\/\/[^\s,;"]+/;

/** A decimal as plain digits ("4.36346E8" → "436346000"); undefined for anything not a non-negative number. */
export function plainDecimal(text: string): string | undefined {
  const m = /^([0-9]+)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?$/.exec(text.trim());
  if (m === null) return undefined;
  let digits = `${m[1]}${m[2] ?? ''}`;
  let point = (m[1] ?? '').length + Number(m[3] ?? 0);
  if (point < 0) {
    digits = '0'.repeat(-point) + digits;
    point = 0;
  }
  digits = digits.padEnd(point, '0');
  const whole = digits.slice(0, point).replace(/^0+(?=[0-9])/, '') || '0';
  const fraction = digits.slice(point).replace(/0+$/, '');
  return fraction === '' ? whole : `${whole}.${fraction}`;
}

function unitOf(text: string | undefined): Unit | undefined {
  const m = /^(t|kt|Mt)\s*CO2e?$/i.exec((text ?? '').trim());
  if (m === null) return undefined;
  return ({ t: 't', kt: 'kt', mt: 'Mt' } as Record<string, Unit>)[(m[1] ?? '').toLowerCase()];
}

export class GhgSources {
  readonly figures: SourceFigure[] = [];
  /** Companies seen per source (matched or not), by name. */
  readonly seen = new Map<string, Set<string>>();
  readonly notes: string[] = [];
  /** Figures of the sources not served, by source and reason. */
  readonly leftOut = new Map<string, number>();

  #see(source: string, name: string): void {
    this.seen.set(source, (this.seen.get(source) ?? new Set()).add(name));
  }

  /**
   * os-climate ITR sample data, sheet "ITR V2 esg data": a block per company (rows without a name
   * continue the block above), with `pdf` rows naming the reports. A figure's report is the `pdf`
   * row of its report date, else the one in its year's column, else the block's only one; without
   * one it is left out. Segments made up by the sample ("Eni S.P.A. - Oil") are left out, and so
   * is every financial or portfolio column. Per scope and year only the block's total is read
   * (design §13.6, `pickTotal`): a row labelled total ("total", "combined", "all"…), else the one
   * unlabelled row; a scope with sub-lines only is left out and counted with its reason.
   */
  addOsClimate(path: string, file: string): void {
    const source = `os-climate-itr/${file}`;
    const rows = readSheet(join(path, file), 'ITR V2 esg data');
    const [header, ...body] = rows;
    const yearColumns = [...(header?.cells ?? new Map<string, string>())].filter(([, v]) => /^20[0-9]{2}$/.test(v));
    const blocks: Array<{ ref: GhgCompanyRef; rows: typeof body }> = [];
    for (const r of body) {
      const name = r.cells.get('A');
      if (name !== undefined) {
        blocks.push({ ref: { name, country: null, isin: r.cells.get('C') ?? null, lei: r.cells.get('B') ?? null }, rows: [] });
      }
      blocks.at(-1)?.rows.push(r);
    }
    const seenSegments = new Set<string>();
    for (const block of blocks) {
      const { ref } = block;
      if (/ - /.test(ref.name) || ref.isin?.includes('-') === true) {
        if (!seenSegments.has(ref.name))
          this.notes.push(`${source}: ${ref.name}: left out: a segment made up by the sample data, not a company`);
        seenSegments.add(ref.name);
        continue;
      }
      this.#see(source, ref.name);
      const pdfs = block.rows
        .filter((r) => r.cells.get('D') === 'pdf')
        .flatMap((r) =>
          yearColumns.flatMap(([column]) => {
            const url = r.cells.get(column)?.match(HTTP_RE)?.[0];
            return url === undefined ? [] : [{ date: r.cells.get('H'), column, url }];
          }),
        );
      const only = new Set(pdfs.map((p) => p.url)).size === 1 ? pdfs[0]?.url : undefined;
      // Per scope and year, every row's value with its role, the unit and report date of each row.
      const byScopeYear = new Map<string, { scope: Scope; year: string; column: string; values: YearValue[] }>();
      const rowInfo = new Map<number, { unit: Unit | undefined; unitText: string; date: string | undefined; metric: string }>();
      for (const r of block.rows) {
        const metric = r.cells.get('D') ?? '';
        const submetric = r.cells.get('E') ?? '';
        const boundary = r.cells.get('F') ?? '';
        const kind = classifyRow(metric, submetric, boundary);
        if (kind === undefined) continue;
        rowInfo.set(r.row, { unit: unitOf(r.cells.get('G')), unitText: r.cells.get('G') ?? '', date: r.cells.get('H'), metric });
        for (const [column, year] of yearColumns) {
          const raw = r.cells.get(column);
          if (raw === undefined) continue;
          const key = `${kind.scope}|${year}`;
          const entry = byScopeYear.get(key) ?? { scope: kind.scope, year, column, values: [] };
          const label = [submetric, boundary].filter((t) => t !== '').join(' / ') || '(unlabelled)';
          entry.values.push({ role: kind.role, value: raw, row: r.row, label });
          byScopeYear.set(key, entry);
        }
      }
      for (const { scope, year, column, values } of byScopeYear.values()) {
        const pick = pickTotal(values);
        if (pick === undefined) continue;
        if (!pick.ok) {
          this.#leaveOut(source, ref.name, year, scope, pick.reason, values[0]?.row);
          continue;
        }
        const info = rowInfo.get(pick.row);
        if (info?.unit === undefined) {
          this.#leaveOut(source, ref.name, year, scope, `unit "${info?.unitText ?? ''}" is not t, kt or Mt CO2e`, pick.row);
          continue;
        }
        const raw = values.find((v) => v.row === pick.row)?.value ?? '';
        const value = plainDecimal(asPrinted(raw));
        if (value === undefined) {
          this.#leaveOut(source, ref.name, year, scope, `"${raw}" is not a number`, pick.row);
          continue;
        }
        const date = info.date;
        const url =
          (date === undefined ? undefined : pdfs.find((p) => p.date === date)?.url) ??
          pdfs.find((p) => p.column === column)?.url ??
          only;
        if (url === undefined) {
          this.#leaveOut(source, ref.name, year, scope, 'no report URL', pick.row);
          continue;
        }
        this.figures.push({
          source,
          company: ref,
          period: Number(year),
          scope,
          value,
          unit: info.unit,
          url,
          title: `${ref.name} report (${new URL(url).hostname})`,
          page: null,
          vintage: url,
          order: date ?? '',
        });
      }
    }
  }

  /** A figure the source has that is not served, counted per source and reason in the report. */
  #leaveOut(source: string, name: string, year: string, scope: Scope, reason: string, row: number | undefined): void {
    const kind = reason.replace(/ \(.*$/, '').replace(/"[^"]*"/g, '…');
    const key = `${source}|${kind}`;
    this.leftOut.set(key, (this.leftOut.get(key) ?? 0) + 1);
    this.notes.push(`${source}${row === undefined ? '' : `:${row}`}: ${name} ${year} scope ${scope}: left out: ${reason}`);
  }

  /**
   * Carbon Gap's Profit and Emissions Database: 2020 Scope 1 and Scope 3, each citing the report
   * the row names for 2020 (title, URL, page: `namedReports`), never the one it names for 2019. Its
   * Scope 2 is left out (location-based only "when available", so its kind is unknown), and so
   * are its 2019 columns.
   */
  addCarbonGap(dir: string, file: string): void {
    const source = `carbon-gap/${file}`;
    const text = readFileSync(join(dir, file), 'utf8').replace(/^\uFEFF/, '');
    // Row 1 is a title: the header is row 2.
    const afterTitle = text.slice(text.indexOf('\n') + 1);
    const rows = readSource(dir, file, afterTitle);
    for (const row of rows) {
      const name = row.get('Company Name');
      if (name === '') continue;
      this.#see(source, name);
      const reports = namedReports(row.get('Datasource emission data (name, link + page nr)'), name);
      const ref: GhgCompanyRef = { name, country: row.get('Country/Territory') || null, isin: null, lei: null };
      const columns: Array<[Scope, number]> = [
        ['1', 7],
        ['3', 10],
      ];
      for (const [scope, index] of columns) {
        const value = plainDecimal(row.at(index).replace(/,/g, ''));
        if (value === undefined) continue;
        const report = reportFor(reports, scope);
        if ('missing' in report) {
          this.#leaveOut(source, name, '2020', scope, report.missing, row.line + 1);
          continue;
        }
        this.figures.push({
          source,
          company: ref,
          period: 2020,
          scope,
          value,
          unit: 't',
          url: report.url,
          title: report.title,
          page: report.page,
          vintage: '2020',
          order: '',
        });
      }
    }
  }

  /** Klimatkollen's hand-checked table (sheet "Main 2.1"): the latest year's scopes, with that year's report URL. */
  addKlimatkollen(path: string, file: string): void {
    const source = `klimatkollen/${file}`;
    const urlColumn: Record<string, string> = { '2021': 'B', '2022': 'C', '2023': 'D' };
    for (const r of readSheet(join(path, file), 'Main 2.1').slice(2)) {
      const name = r.cells.get('A');
      if (name === undefined) continue;
      this.#see(source, name);
      const year = String(Math.trunc(Number(r.cells.get('H'))));
      const url = r.cells.get(urlColumn[year] ?? '')?.match(HTTP_RE)?.[0];
      if (url === undefined) {
        this.notes.push(`${source}:${r.row}: ${name}: left out: no report URL for ${year}`);
        continue;
      }
      const ref: GhgCompanyRef = { name, country: 'Sweden', isin: null, lei: null };
      const columns: Array<[Scope, string]> = [
        ['1', 'I'],
        ['2-location', 'J'],
        ['2-market', 'K'],
        ['3', 'M'],
      ];
      for (const [scope, column] of columns) {
        const raw = r.cells.get(column);
        if (raw === undefined) continue;
        const value = plainDecimal(asPrinted(raw));
        if (value === undefined) {
          this.notes.push(`${source}:${r.row}: ${name} scope ${scope}: left out: "${raw}" is not a number`);
          continue;
        }
        this.figures.push({
          source,
          company: ref,
          period: Number(year),
          scope,
          value,
          unit: 't',
          url,
          title: `${name} sustainability report ${year}`,
          page: null,
          vintage: year,
          order: '',
        });
      }
    }
  }

  /**
   * Matches every figure's company to the catalog and turns figures into documents (one per
   * company, report URL and vintage) and bundle rows. No source gives a publication date, so none
   * is written (the trace page says it is unknown). A later report repeating the value an earlier
   * one gave for the same company, period and scope adds no data point (design §13.6); a report
   * left without figures is left out.
   */
  build(companies: readonly DemoCompany[]): { documents: GhgDocument[]; figures: GhgFigure[]; report: string[] } {
    const matcher = new CatalogMatcher(companies);
    const report: string[] = [];
    const outcomes = new Map<string, ReturnType<CatalogMatcher['match']>>();
    for (const f of this.figures) {
      const key = `${f.source}|${f.company.name}`;
      if (!outcomes.has(key)) outcomes.set(key, matcher.match(f.company));
    }
    const documents = new Map<string, GhgDocument & { order: string }>();
    const figures = new Map<string, GhgFigure & { source: string }>();
    for (const f of this.figures) {
      const outcome = outcomes.get(`${f.source}|${f.company.name}`);
      if (outcome === undefined || !outcome.ok) continue;
      const companyId = outcome.company.id;
      const docKey = `${companyId}|${f.url}|${f.vintage}`;
      const id = nameUuid(`ghg-document:${docKey}`);
      const known = documents.get(id);
      const period = Math.max(known?.reportingPeriod ?? f.period, f.period);
      documents.set(id, {
        id,
        companyId,
        title: f.title,
        sourceUrl: f.url,
        publishedOn: '',
        reportingPeriod: period,
        order: known === undefined || f.order > known.order ? f.order : known.order,
      });
      // A figure given twice for one report (the same source row repeated) counts once: the first.
      const figureKey = `${id}|${f.period}|${f.scope}`;
      if (!figures.has(figureKey)) {
        figures.set(figureKey, {
          companyId,
          documentId: id,
          period: f.period,
          scope: f.scope,
          value: f.value,
          unit: f.unit,
          page: f.page ?? '',
          source: f.source,
        });
      }
    }
    const kept = dropRepeats([...figures.values()], documents);
    const used = new Set(kept.figures.map((f) => f.documentId));
    for (const [source, names] of [...this.seen].sort()) {
      const keys = [...names].map((n) => `${source}|${n}`);
      const matched = keys.filter((k) => outcomes.get(k)?.ok === true);
      const withFigures = keys.filter((k) => outcomes.has(k));
      const companyYears = new Set(
        this.figures
          .filter((f) => f.source === source && outcomes.get(`${source}|${f.company.name}`)?.ok === true)
          .map((f) => `${f.company.name}|${f.period}`),
      );
      const allYears = new Set(this.figures.filter((f) => f.source === source).map((f) => `${f.company.name}|${f.period}`));
      const rate = withFigures.length === 0 ? 0 : (100 * matched.length) / withFigures.length;
      report.push(
        `ghg ${source}: companies ${names.size}, with usable figures ${withFigures.length}, matched to the catalog ${matched.length} (${rate.toFixed(1)}%); company-years ${allYears.size}, matched ${companyYears.size}`,
      );
      const reasons = new Map<string, number>();
      for (const k of withFigures) {
        const o = outcomes.get(k);
        if (o === undefined || o.ok) continue;
        const kind = o.reason.startsWith('ambiguous')
          ? 'ambiguous name'
          : o.reason.startsWith('no catalog')
            ? 'no catalog company'
            : 'other country';
        reasons.set(kind, (reasons.get(kind) ?? 0) + 1);
      }
      for (const [kind, n] of [...reasons].sort()) report.push(`ghg ${source}: not matched, ${kind}: ${n}`);
      const by = new Map<string, number>();
      for (const k of matched) {
        const o = outcomes.get(k);
        if (o?.ok === true) by.set(o.by, (by.get(o.by) ?? 0) + 1);
      }
      report.push(
        `ghg ${source}: matched by ${
          [...by]
            .sort()
            .map(([b, n]) => `${b} ${n}`)
            .join(', ') || 'nothing'
        }`,
      );
    }
    for (const [key, o] of [...outcomes].sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (!o.ok) report.push(`ghg ${key.replace('|', ': ')}: not matched: ${o.reason}`);
    }
    for (const source of [...this.seen.keys()].sort()) {
      const read = this.figures.filter((f) => f.source === source);
      const ofMatched = read.filter((f) => outcomes.get(`${source}|${f.company.name}`)?.ok === true).length;
      const served = kept.figures.filter((f) => f.source === source).length;
      report.push(
        `ghg ${source}: figures read (one total per company, year and scope) ${read.length}, of matched companies ${ofMatched}, served ${served}, repeats of an earlier report dropped ${kept.repeats.get(source) ?? 0}`,
      );
    }
    for (const [key, n] of [...this.leftOut].sort()) {
      if (key.endsWith("|repeats an earlier report's value")) continue;
      const [source, reason] = key.split('|');
      report.push(`ghg ${source}: left out, ${reason}: ${n}`);
    }
    report.push(...this.notes);
    const sortedDocuments = [...documents.values()]
      .filter((d) => used.has(d.id))
      .map(({ order: _order, ...d }) => d)
      .sort((a, b) => (a.id < b.id ? -1 : 1));
    const sortedFigures = kept.figures
      .map(({ source: _source, ...f }) => f)
      .sort(
        (a, b) =>
          (a.companyId < b.companyId ? -1 : a.companyId > b.companyId ? 1 : 0) ||
          a.period - b.period ||
          (a.documentId < b.documentId ? -1 : a.documentId > b.documentId ? 1 : 0) ||
          (a.scope < b.scope ? -1 : 1),
      );
    return { documents: sortedDocuments, figures: sortedFigures, report };
  }
}

const TONNES: Record<Unit, number> = { t: 1, kt: 1_000, Mt: 1_000_000 };

/**
 * Per company, period and scope, the figures in the order their reports came (the report's period,
 * then its date where the source gives one, then its id): a figure equal in tonnes to the one
 * before it repeats it and is dropped; a different one is a restatement and stays.
 */
function dropRepeats<F extends GhgFigure & { source: string }>(
  figures: readonly F[],
  documents: ReadonlyMap<string, { reportingPeriod: number; order: string }>,
): { figures: F[]; repeats: Map<string, number> } {
  const orderOf = (f: F) => {
    const d = documents.get(f.documentId);
    return `${String(d?.reportingPeriod ?? 0).padStart(4, '0')}|${d?.order ?? ''}|${f.documentId}`;
  };
  const sorted = [...figures].sort((a, b) => {
    const ka = `${a.companyId}|${a.period}|${a.scope}|${orderOf(a)}`;
    const kb = `${b.companyId}|${b.period}|${b.scope}|${orderOf(b)}`;
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });
  const kept: F[] = [];
  const repeats = new Map<string, number>();
  let last: F | undefined;
  for (const f of sorted) {
    const same = last !== undefined && last.companyId === f.companyId && last.period === f.period && last.scope === f.scope;
    if (same && last !== undefined && Number(last.value) * TONNES[last.unit] === Number(f.value) * TONNES[f.unit]) {
      repeats.set(f.source, (repeats.get(f.source) ?? 0) + 1);
      continue;
    }
    kept.push(f);
    last = f;
  }
  return { figures: kept, repeats };
}
