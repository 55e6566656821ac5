import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DemoCompany } from './companies.js';
import { readSource } from './csv.js';
import { CatalogMatcher, type GhgCompanyRef } from './ghg-match.js';
import { nameUuid } from './name-uuid.js';
import { readSheet } from './xlsx.js';

type Scope = '1' | '2-location' | '2-market' | '3';
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

  #see(source: string, name: string): void {
    this.seen.set(source, (this.seen.get(source) ?? new Set()).add(name));
  }

  /**
   * os-climate ITR sample data, sheet "ITR V2 esg data": a block per company (rows without a name
   * continue the block above), with `pdf` rows naming the reports. A figure's report is the `pdf`
   * row of its report date, else the one in its year's column, else the block's only one; without
   * one it is left out. Segments made up by the sample ("Eni S.P.A. - Oil") are left out, and so
   * is every financial or portfolio column: only s1, s2 (location/market) and s3 (total) are read.
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
      for (const r of block.rows) {
        const metric = r.cells.get('D');
        const sub = (r.cells.get('E') ?? '').toLowerCase();
        const scope: Scope | undefined =
          metric === 's1'
            ? '1'
            : metric === 's2' && sub === 'location'
              ? '2-location'
              : metric === 's2' && sub === 'market'
                ? '2-market'
                : metric === 's3' && (sub === 'total' || sub === '')
                  ? '3'
                  : undefined;
        if (scope === undefined) continue;
        const unit = unitOf(r.cells.get('G'));
        if (unit === undefined) {
          this.notes.push(
            `${source}:${r.row}: ${ref.name} ${metric}: left out: unit "${r.cells.get('G') ?? ''}" is not t, kt or Mt CO2e`,
          );
          continue;
        }
        const date = r.cells.get('H');
        for (const [column, year] of yearColumns) {
          const raw = r.cells.get(column);
          if (raw === undefined) continue;
          const value = plainDecimal(raw);
          if (value === undefined) {
            this.notes.push(`${source}:${r.row}: ${ref.name} ${metric} ${year}: left out: "${raw}" is not a number`);
            continue;
          }
          const url =
            (date === undefined ? undefined : pdfs.find((p) => p.date === date)?.url) ??
            pdfs.find((p) => p.column === column)?.url ??
            only;
          if (url === undefined) {
            this.notes.push(`${source}:${r.row}: ${ref.name} ${metric} ${year}: left out: no report URL`);
            continue;
          }
          this.figures.push({
            source,
            company: ref,
            period: Number(year),
            scope,
            value,
            unit,
            url,
            title: `${ref.name} report (${new URL(url).hostname})`,
            page: null,
            vintage: url,
          });
        }
      }
    }
  }

  /**
   * Carbon Gap's Profit and Emissions Database: 2020 Scope 1 and Scope 3 with the report's URL and
   * page. Its Scope 2 is left out (location-based only "when available", so its kind is unknown),
   * and so are its 2019 columns (their report is not named apart from 2020's).
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
      const datasource = row.get('Datasource emission data (name, link + page nr)');
      const url = HTTP_RE.exec(datasource)?.[0];
      if (url === undefined) {
        this.notes.push(`${source}:${row.line + 1}: ${name}: left out: no report URL`);
        continue;
      }
      const before = datasource.slice(0, datasource.indexOf(url));
      const page = /page\s*([0-9]+(?:\s*[-–]\s*[0-9]+)?)/i.exec(before)?.[1] ?? null;
      const title = before.replace(/,?\s*page\s*[0-9].*$/i, '').replace(/[,\s]+$/, '') || `${name} report`;
      const ref: GhgCompanyRef = { name, country: row.get('Country/Territory') || null, isin: null, lei: null };
      const columns: Array<[Scope, number]> = [
        ['1', 7],
        ['3', 10],
      ];
      for (const [scope, index] of columns) {
        const raw = row.at(index);
        const value = plainDecimal(raw.replace(/,/g, ''));
        if (value === undefined) continue;
        this.figures.push({
          source,
          company: ref,
          period: 2020,
          scope,
          value,
          unit: 't',
          url,
          title,
          page: page === null ? null : `p. ${page}`,
          vintage: '2020',
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
        const value = plainDecimal(raw);
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
        });
      }
    }
  }

  /**
   * Matches every figure's company to the catalog and turns figures into documents (one per
   * company, report URL and vintage) and bundle rows. The publication date is not in the sources:
   * it is taken as 1 January after the latest period a report covers, and the title says so.
   */
  build(companies: readonly DemoCompany[]): { documents: GhgDocument[]; figures: GhgFigure[]; report: string[] } {
    const matcher = new CatalogMatcher(companies);
    const report: string[] = [];
    const outcomes = new Map<string, ReturnType<CatalogMatcher['match']>>();
    for (const f of this.figures) {
      const key = `${f.source}|${f.company.name}`;
      if (!outcomes.has(key)) outcomes.set(key, matcher.match(f.company));
    }
    const documents = new Map<string, GhgDocument>();
    const figures = new Map<string, GhgFigure>();
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
        title: `${f.title} [publication date derived]`,
        sourceUrl: f.url,
        publishedOn: `${period + 1}-01-01`,
        reportingPeriod: period,
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
        });
      }
    }
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
    report.push(...this.notes);
    const sortedDocuments = [...documents.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
    const sortedFigures = [...figures.values()].sort(
      (a, b) =>
        (a.companyId < b.companyId ? -1 : a.companyId > b.companyId ? 1 : 0) ||
        a.period - b.period ||
        (a.documentId < b.documentId ? -1 : a.documentId > b.documentId ? 1 : 0) ||
        (a.scope < b.scope ? -1 : 1),
    );
    return { documents: sortedDocuments, figures: sortedFigures, report };
  }
}
