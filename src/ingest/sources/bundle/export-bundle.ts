import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { DatasetBundle } from '../../core/dataset-bundle.js';
import { allColumns, BUNDLE_FILES } from './bundle-files.js';
import { CsvWriter } from './write-csv.js';

export interface ExportSummary {
  fx_rates: number;
  companies: number;
  listings: number;
  documents: number;
  /** Rows of each dataset file written (e.g. `revenues`, `ghg_emissions`), by file name without `.csv`. */
  [datasetFile: string]: number;
}

const PAGE = 5_000;

/**
 * Reads a table page by page in key order (keyset pagination), so an export of any size needs
 * memory for one page only and sees a stable order on either database.
 */
async function* pages<T>(fetch: (after: T | undefined) => Promise<T[]>): AsyncGenerator<T> {
  let after: T | undefined;
  for (;;) {
    const rows = await fetch(after);
    for (const row of rows) yield row;
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1];
  }
}

/**
 * Writes the catalog and every dataset's figures (`bundles`) as an import bundle (design §5) into `dir`: importing it
 * into an empty database gives the same API answers. Rows come out in a fixed order, so the same
 * database always exports the same bytes. Accounts, keys and the ledger are not part of a bundle,
 * nor is a company without a primary listing (the bundle format cannot hold one).
 */
export async function exportBundle(db: Kysely<Database>, dir: string, bundles: readonly DatasetBundle[]): Promise<ExportSummary> {
  mkdirSync(dir, { recursive: true });
  const summary: ExportSummary = { fx_rates: 0, companies: 0, listings: 0, documents: 0 };

  const fx = new CsvWriter(join(dir, 'fx_rates.csv'), BUNDLE_FILES['fx_rates.csv']);
  for await (const r of pages<{ currency: string; year: number; usd_per_unit: string; source: string }>((after) => {
    let q = db.selectFrom('fx_rates').select(['currency', 'year', 'usd_per_unit', 'source']);
    if (after !== undefined) {
      q = q.where((eb) =>
        eb.or([eb('currency', '>', after.currency), eb.and([eb('currency', '=', after.currency), eb('year', '>', after.year)])]),
      );
    }
    return q.orderBy('currency').orderBy('year').limit(PAGE).execute();
  })) {
    await fx.row([r.currency, r.year, r.usd_per_unit, r.source]);
    summary.fx_rates++;
  }
  await fx.close();

  // Listings in the order they were added, so an import of the export ranks shared tickers alike.
  const companies = new CsvWriter(join(dir, 'companies.csv'), allColumns('companies.csv'));
  // The CIKs companies also file under (design §19.4): few, held in memory.
  const otherCiks = new Map<string, string[]>();
  for (const i of await db
    .selectFrom('company_identifiers')
    .select(['company_id', 'value'])
    .where('kind', '=', 'cik')
    .orderBy('value')
    .execute()) {
    otherCiks.set(i.company_id, [...(otherCiks.get(i.company_id) ?? []), i.value]);
  }
  const otherCiksOf = (companyId: string) => otherCiks.get(companyId)?.join(' ') ?? null;
  const listings = new CsvWriter(join(dir, 'listings.csv'), BUNDLE_FILES['listings.csv']);
  type Row = {
    added_seq: number;
    mic_code: string;
    ticker: string;
    isin: string | null;
    is_primary: number;
    company_id: string;
    name: string;
    country: string | null;
    lei: string | null;
    cik: string | null;
  };
  for await (const l of pages<Row>((after) => {
    let q = db
      .selectFrom('listings as l')
      .innerJoin('companies as c', 'c.company_id', 'l.company_id')
      .select([
        'l.added_seq',
        'l.mic_code',
        'l.ticker',
        'l.isin',
        'l.is_primary',
        'c.company_id',
        'c.name',
        'c.country',
        'c.lei',
        'c.cik',
      ]);
    if (after !== undefined) {
      q = q.where((eb) =>
        eb.or([
          eb('l.added_seq', '>', after.added_seq),
          eb.and([eb('l.added_seq', '=', after.added_seq), eb('l.mic_code', '>', after.mic_code)]),
          eb.and([
            eb('l.added_seq', '=', after.added_seq),
            eb('l.mic_code', '=', after.mic_code),
            eb('l.ticker', '>', after.ticker),
          ]),
        ]),
      );
    }
    return q.orderBy('l.added_seq').orderBy('l.mic_code').orderBy('l.ticker').limit(PAGE).execute();
  })) {
    if (Number(l.is_primary) === 1) {
      await companies.row([
        l.company_id,
        l.name,
        l.country,
        l.lei,
        l.ticker,
        l.mic_code,
        l.isin,
        l.cik,
        otherCiksOf(l.company_id),
      ]);
      summary.companies++;
    } else {
      await listings.row([l.company_id, l.ticker, l.mic_code, l.isin]);
      summary.listings++;
    }
  }
  // Companies without a listing (added from their filings, design §19.1): empty ticker and mic_code.
  for await (const c of pages<{
    company_id: string;
    name: string;
    country: string | null;
    lei: string | null;
    cik: string | null;
  }>((after) => {
    let q = db
      .selectFrom('companies as c')
      .select(['c.company_id', 'c.name', 'c.country', 'c.lei', 'c.cik'])
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('listings as l').select('l.company_id').whereRef('l.company_id', '=', 'c.company_id'))),
      );
    if (after !== undefined) q = q.where('c.company_id', '>', after.company_id);
    return q.orderBy('c.company_id').limit(PAGE).execute();
  })) {
    await companies.row([c.company_id, c.name, c.country, c.lei, null, null, null, c.cik, otherCiksOf(c.company_id)]);
    summary.companies++;
  }
  await companies.close();
  await listings.close();

  const documents = new CsvWriter(join(dir, 'documents.csv'), allColumns('documents.csv'));
  type DocumentRow = Omit<Database['documents'], 'kind'> & { kind: string };
  for await (const d of pages<DocumentRow>((after) => {
    let q = db.selectFrom('documents').selectAll();
    if (after !== undefined) q = q.where('document_id', '>', after.document_id);
    return q.orderBy('document_id').limit(PAGE).execute();
  })) {
    await documents.row([
      d.document_id,
      d.company_id,
      d.title,
      d.source_url,
      d.published_on,
      d.reporting_period,
      d.status,
      d.form,
      d.accession,
      d.kind,
      d.main_document_url,
      d.source,
      d.source_key,
    ]);
    summary.documents++;
  }
  await documents.close();

  // A dataset's file is written only when it holds figures, so a bundle without them stays as it
  // was; one always listed (revenues.csv) is written and counted even when empty.
  for (const b of bundles) {
    const open = () => new CsvWriter(join(dir, b.file), [...b.columns, ...b.optionalColumns]);
    let writer = b.alwaysListed === true ? open() : undefined;
    let count = 0;
    for await (const row of b.exportRows(db)) {
      writer ??= open();
      await writer.row(row);
      count++;
    }
    await writer?.close();
    if (count > 0 || b.alwaysListed === true) summary[b.file.replace(/\.csv$/, '')] = count;
  }
  return summary;
}
