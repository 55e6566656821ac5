import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import { bumpVersion } from '../db/versions.js';
import { rateCurrency, toUsd } from '../revenues/normalize.js';
import { BUNDLE_FILE_NAMES, BUNDLE_FILES, type BundleFile, ImportError, type ImportIssue } from './bundle-files.js';
import { readCsv } from './read-csv.js';
import { renormalize } from './renormalize.js';
import { checkStage, createStage, dropStage, indexStage, type StageDb } from './stage.js';
import { type Checked, checkCompany, checkDocument, checkFxRate, checkListing, checkRevenue } from './validate-row.js';

export interface ImportSummary {
  fx_rates: number;
  companies: number;
  listings: number;
  documents: number;
  revenues: number;
  /** Data points already stored whose USD value moved because their FX rate changed. */
  renormalized: number;
}

export interface ImportOptions {
  /** Called as rows are read, for a progress bar. */
  onProgress?: (file: BundleFile, rows: number) => void;
}

const BATCH = 500;
/** Stop reading after this many problems: the operator has enough to fix. */
const MAX_ISSUES = 200;

/** A data point's id: stable across imports, so a re-import or an export round trip keeps its links. */
export function pointId(documentId: string, period: number): string {
  const h = createHash('sha256').update(`revenue-point:${documentId}:${period}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

type Rates = Map<string, { usdPerUnit: string; source: string }>;
const rateKey = (currency: string, year: number) => `${currency}:${year}`;

async function loadRates(db: Kysely<Database>): Promise<Rates> {
  const rows = await db.selectFrom('fx_rates').select(['currency', 'year', 'usd_per_unit', 'source']).execute();
  return new Map(rows.map((r) => [rateKey(r.currency, r.year), { usdPerUnit: r.usd_per_unit, source: r.source }]));
}

/**
 * Imports a bundle folder (DESIGN §5) whole or not at all. Rows stream into temporary tables inside
 * one transaction, are checked row by row and then as a whole, and only a bundle without a single
 * problem is applied; otherwise {@link ImportError} lists every `file:line` and nothing is written.
 * Importing the same bundle twice changes nothing.
 */
export async function importBundle(db: Kysely<Database>, dir: string, options: ImportOptions = {}): Promise<ImportSummary> {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new ImportError([{ file: dir, line: 0, message: 'is not a folder' }]);
  }
  const present = BUNDLE_FILE_NAMES.filter((f) => existsSync(join(dir, f)));
  if (present.length === 0) {
    throw new ImportError([{ file: dir, line: 0, message: `holds none of ${BUNDLE_FILE_NAMES.join(', ')}` }]);
  }
  const rates = await loadRates(db);
  const previousRates = new Map(rates);
  return db.transaction().execute(async (trx) => {
    // A write first, so SQLite takes the write lock now rather than failing to upgrade later.
    await bumpVersion(trx, 'data');
    const stage = await createStage(trx);
    const issues: ImportIssue[] = [];
    const counts: Record<BundleFile, number> = {
      'fx_rates.csv': 0,
      'companies.csv': 0,
      'listings.csv': 0,
      'documents.csv': 0,
      'revenues.csv': 0,
    };
    for (const file of present) {
      counts[file] = await stageFile(stage, join(dir, file), file, rates, issues, options);
      if (issues.length >= MAX_ISSUES) break;
    }
    if (issues.length === 0) {
      await indexStage(stage);
      issues.push(...(await checkStage(stage)));
    }
    if (issues.length > 0) {
      issues.sort(
        (a, b) =>
          BUNDLE_FILE_NAMES.indexOf(a.file as BundleFile) - BUNDLE_FILE_NAMES.indexOf(b.file as BundleFile) || a.line - b.line,
      );
      throw new ImportError(issues.slice(0, MAX_ISSUES));
    }
    await apply(stage);
    const renormalized = await renormalize(trx, previousRates, rates);
    await dropStage(stage);
    return {
      fx_rates: counts['fx_rates.csv'],
      companies: counts['companies.csv'],
      listings: counts['listings.csv'],
      documents: counts['documents.csv'],
      revenues: counts['revenues.csv'],
      renormalized,
    };
  });
}

async function stageFile(
  db: StageDb,
  path: string,
  file: BundleFile,
  rates: Rates,
  issues: ImportIssue[],
  options: ImportOptions,
): Promise<number> {
  let batch: Record<string, unknown>[] = [];
  let rows = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const table = STAGE_TABLE[file];
    await db
      .insertInto(table)
      .values(batch as never)
      .execute();
    batch = [];
  };
  for await (const { line, values } of readCsv(path, file, BUNDLE_FILES[file], issues)) {
    rows++;
    const staged = stageRow(file, values, line, rates);
    if (!staged.ok) {
      for (const message of staged.messages) issues.push({ file, line, message });
      if (issues.length >= MAX_ISSUES) break;
      continue;
    }
    if (issues.length > 0) continue; // keep reading to report problems, stop writing
    batch.push({ ...staged.row, line });
    if (batch.length >= BATCH) await flush();
    if (rows % 10_000 === 0) options.onProgress?.(file, rows);
  }
  if (issues.length === 0) await flush();
  options.onProgress?.(file, rows);
  return rows;
}

const STAGE_TABLE = {
  'fx_rates.csv': 'stage_fx',
  'companies.csv': 'stage_companies',
  'listings.csv': 'stage_listings',
  'documents.csv': 'stage_documents',
  'revenues.csv': 'stage_revenues',
} as const;

function stageRow(file: BundleFile, v: Record<string, string>, line: number, rates: Rates): Checked<Record<string, unknown>> {
  switch (file) {
    case 'fx_rates.csv': {
      const c = checkFxRate(v);
      if (!c.ok) return c;
      rates.set(rateKey(c.row.currency, c.row.year), { usdPerUnit: c.row.usdPerUnit, source: c.row.source });
      return {
        ok: true,
        row: { currency: c.row.currency, year: c.row.year, usd_per_unit: c.row.usdPerUnit, source: c.row.source },
      };
    }
    case 'companies.csv': {
      const c = checkCompany(v);
      if (!c.ok) return c;
      const r = c.row;
      return {
        ok: true,
        row: {
          company_id: r.companyId,
          name: r.name,
          country: r.country,
          lei: r.lei,
          ticker: r.ticker,
          mic_code: r.micCode,
          isin: r.isin,
        },
      };
    }
    case 'listings.csv': {
      const c = checkListing(v);
      if (!c.ok) return c;
      return { ok: true, row: { company_id: c.row.companyId, ticker: c.row.ticker, mic_code: c.row.micCode, isin: c.row.isin } };
    }
    case 'documents.csv': {
      const c = checkDocument(v);
      if (!c.ok) return c;
      const r = c.row;
      return {
        ok: true,
        row: {
          document_id: r.documentId,
          company_id: r.companyId,
          title: r.title,
          source_url: r.sourceUrl,
          published_on: r.publishedOn,
          reporting_period: r.reportingPeriod,
          status: r.status,
        },
      };
    }
    case 'revenues.csv': {
      const c = checkRevenue(v);
      if (!c.ok) return c;
      const r = c.row;
      let fxRate = '1';
      let fxSource = 'USD figure, no conversion';
      if (r.currency !== 'USD') {
        const basis = rateCurrency(r.currency);
        const rate = rates.get(rateKey(basis.currency, r.reportingPeriod));
        if (rate === undefined) {
          return {
            ok: false,
            messages: [
              `no FX rate for ${basis.currency} ${r.reportingPeriod}: add it to fx_rates.csv (a figure is never stored without its USD value)`,
            ],
          };
        }
        fxRate = rate.usdPerUnit;
        fxSource = rate.source;
      }
      let valueUsd: number;
      try {
        valueUsd = toUsd(r.value, r.currency, fxRate);
      } catch (error) {
        return { ok: false, messages: [(error as Error).message] };
      }
      void line;
      return {
        ok: true,
        row: {
          point_id: pointId(r.documentId, r.reportingPeriod),
          company_id: r.companyId,
          document_id: r.documentId,
          reporting_period: r.reportingPeriod,
          original_value: r.value,
          original_ccy: r.currency,
          value_usd: valueUsd,
          fx_rate: fxRate,
          fx_source: fxSource,
        },
      };
    }
  }
}

/** Applies a checked stage: upserts keyed by the bundle's stable ids. */
async function apply(db: StageDb): Promise<void> {
  const statements = [
    sql`insert into fx_rates (currency, year, usd_per_unit, source)
        select currency, year, usd_per_unit, source from stage_fx where true
        on conflict (currency, year) do update set usd_per_unit = excluded.usd_per_unit, source = excluded.source`,
    sql`insert into companies (company_id, name, country, lei)
        select company_id, name, country, lei from stage_companies where true
        on conflict (company_id) do update set name = excluded.name, country = excluded.country, lei = excluded.lei`,
    sql`update listings set is_primary = 0 where company_id in (select company_id from stage_companies)`,
    sql`insert into listings (company_id, ticker, mic_code, isin, is_primary, added_seq)
        select company_id, ticker, mic_code, isin, 1, (select coalesce(max(added_seq), 0) from listings) + line from stage_companies where true
        on conflict (mic_code, ticker) do update set company_id = excluded.company_id, isin = excluded.isin, is_primary = 1`,
    sql`insert into listings (company_id, ticker, mic_code, isin, is_primary, added_seq)
        select company_id, ticker, mic_code, isin, 0, (select coalesce(max(added_seq), 0) from listings) + 1000000000 + line from stage_listings where true
        on conflict (mic_code, ticker) do update set company_id = excluded.company_id, isin = excluded.isin`,
    sql`insert into documents (document_id, company_id, title, source_url, published_on, reporting_period, status)
        select document_id, company_id, title, source_url, published_on, reporting_period, status from stage_documents where true
        on conflict (document_id) do update set company_id = excluded.company_id, title = excluded.title,
          source_url = excluded.source_url, published_on = excluded.published_on,
          reporting_period = excluded.reporting_period, status = excluded.status`,
    sql`insert into revenue_points (point_id, company_id, document_id, reporting_period, original_value, original_ccy, value_usd, fx_rate, fx_source)
        select point_id, company_id, document_id, reporting_period, original_value, original_ccy, value_usd, fx_rate, fx_source from stage_revenues where true
        on conflict (point_id) do update set company_id = excluded.company_id, original_value = excluded.original_value,
          original_ccy = excluded.original_ccy, value_usd = excluded.value_usd, fx_rate = excluded.fx_rate, fx_source = excluded.fx_source`,
  ];
  for (const s of statements) await s.execute(db);
}
