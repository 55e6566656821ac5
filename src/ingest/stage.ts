import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import type { ImportIssue } from './bundle-files.js';

/** Temporary tables a bundle is streamed into before it is checked as a whole and applied. */
export type StageTables = {
  stage_fx: { currency: string; year: number; usd_per_unit: string; source: string; line: number };
  stage_companies: {
    company_id: string;
    name: string;
    country: string | null;
    lei: string | null;
    ticker: string;
    mic_code: string;
    isin: string | null;
    line: number;
  };
  stage_listings: { company_id: string; ticker: string; mic_code: string; isin: string | null; line: number };
  stage_documents: {
    document_id: string;
    company_id: string;
    title: string;
    source_url: string;
    published_on: string;
    reporting_period: number;
    status: string;
    line: number;
  };
  stage_revenues: {
    point_id: string;
    company_id: string;
    document_id: string;
    reporting_period: number;
    original_value: number;
    original_ccy: string;
    value_usd: number;
    fx_rate: string;
    fx_source: string;
    line: number;
  };
};

export type StageDb = Transaction<Database & StageTables>;

export async function createStage(trx: Transaction<Database>): Promise<StageDb> {
  const statements = [
    sql`create temporary table stage_fx (currency text, year integer, usd_per_unit text, source text, line integer)`,
    sql`create temporary table stage_companies (company_id text, name text, country text, lei text, ticker text, mic_code text, isin text, line integer)`,
    sql`create temporary table stage_listings (company_id text, ticker text, mic_code text, isin text, line integer)`,
    sql`create temporary table stage_documents (document_id text, company_id text, title text, source_url text, published_on text, reporting_period integer, status text, line integer)`,
    sql`create temporary table stage_revenues (point_id text, company_id text, document_id text, reporting_period integer, original_value bigint, original_ccy text, value_usd bigint, fx_rate text, fx_source text, line integer)`,
  ];
  for (const s of statements) await s.execute(trx);
  return trx.withTables<StageTables>();
}

/** Indexes made after loading (cheaper than maintaining them row by row). */
export async function indexStage(db: StageDb): Promise<void> {
  const statements = [
    sql`create index stage_fx_key on stage_fx (currency, year)`,
    sql`create index stage_companies_key on stage_companies (company_id)`,
    sql`create index stage_companies_listing on stage_companies (mic_code, ticker)`,
    sql`create index stage_listings_key on stage_listings (mic_code, ticker)`,
    sql`create index stage_documents_key on stage_documents (document_id)`,
    sql`create index stage_revenues_key on stage_revenues (point_id)`,
  ];
  for (const s of statements) await s.execute(db);
}

export async function dropStage(db: StageDb): Promise<void> {
  for (const t of ['stage_fx', 'stage_companies', 'stage_listings', 'stage_documents', 'stage_revenues']) {
    await sql`drop table ${sql.table(t)}`.execute(db);
  }
}

interface Finding {
  line: number;
  detail: string | null;
}

async function find(
  db: StageDb,
  file: string,
  message: (detail: string | null) => string,
  query: ReturnType<typeof sql<Finding>>,
): Promise<ImportIssue[]> {
  const { rows } = await query.execute(db);
  return rows.map((r) => ({ file, line: Number(r.line), message: message(r.detail) }));
}

/**
 * Whole-bundle checks the row validators cannot make: duplicate keys, references to unknown
 * companies or documents (in the bundle or already in the database), and clashing identifiers.
 */
export async function checkStage(db: StageDb): Promise<ImportIssue[]> {
  const checks = await Promise.all([
    find(
      db,
      'fx_rates.csv',
      (d) => `duplicate rate for ${d}`,
      sql<Finding>`
      select s.line, s.currency || ' ' || cast(s.year as text) as detail from stage_fx s
      where exists (select 1 from stage_fx t where t.currency = s.currency and t.year = s.year and t.line < s.line)`,
    ),
    find(
      db,
      'companies.csv',
      (d) => `duplicate company_id ${d}`,
      sql<Finding>`
      select s.line, s.company_id as detail from stage_companies s
      where exists (select 1 from stage_companies t where t.company_id = s.company_id and t.line < s.line)`,
    ),
    find(
      db,
      'companies.csv',
      (d) => `ticker ${d} is listed twice in the bundle`,
      sql<Finding>`
      select s.line, s.ticker || ' on ' || s.mic_code as detail from stage_companies s
      where exists (select 1 from stage_companies t where t.mic_code = s.mic_code and t.ticker = s.ticker and t.line < s.line)`,
    ),
    find(
      db,
      'listings.csv',
      (d) => `ticker ${d} is listed twice in the bundle`,
      sql<Finding>`
      select s.line, s.ticker || ' on ' || s.mic_code as detail from stage_listings s
      where exists (select 1 from stage_listings t where t.mic_code = s.mic_code and t.ticker = s.ticker and t.line < s.line)
         or exists (select 1 from stage_companies t where t.mic_code = s.mic_code and t.ticker = s.ticker)`,
    ),
    find(
      db,
      'companies.csv',
      (d) => `isin ${d} is used twice`,
      sql<Finding>`
      select s.line, s.isin as detail from stage_companies s where s.isin is not null and (
        exists (select 1 from stage_companies t where t.isin = s.isin and t.line < s.line)
        or exists (select 1 from listings l where l.isin = s.isin and not (l.mic_code = s.mic_code and l.ticker = s.ticker)))`,
    ),
    find(
      db,
      'listings.csv',
      (d) => `isin ${d} is used twice`,
      sql<Finding>`
      select s.line, s.isin as detail from stage_listings s where s.isin is not null and (
        exists (select 1 from stage_listings t where t.isin = s.isin and t.line < s.line)
        or exists (select 1 from stage_companies t where t.isin = s.isin)
        or exists (select 1 from listings l where l.isin = s.isin and not (l.mic_code = s.mic_code and l.ticker = s.ticker)))`,
    ),
    find(
      db,
      'companies.csv',
      (d) => `lei ${d} belongs to another company`,
      sql<Finding>`
      select s.line, s.lei as detail from stage_companies s where s.lei is not null and (
        exists (select 1 from stage_companies t where t.lei = s.lei and t.line < s.line)
        or exists (select 1 from companies c where c.lei = s.lei and c.company_id <> s.company_id
          and not exists (select 1 from stage_companies u where u.company_id = c.company_id)))`,
    ),
    find(
      db,
      'listings.csv',
      (d) => `company_id ${d} is not in companies.csv nor in the database`,
      sql<Finding>`
      select s.line, s.company_id as detail from stage_listings s
      where not exists (select 1 from stage_companies t where t.company_id = s.company_id)
        and not exists (select 1 from companies c where c.company_id = s.company_id)`,
    ),
    find(
      db,
      'documents.csv',
      (d) => `duplicate document_id ${d}`,
      sql<Finding>`
      select s.line, s.document_id as detail from stage_documents s
      where exists (select 1 from stage_documents t where t.document_id = s.document_id and t.line < s.line)`,
    ),
    find(
      db,
      'documents.csv',
      (d) => `company_id ${d} is not in companies.csv nor in the database`,
      sql<Finding>`
      select s.line, s.company_id as detail from stage_documents s
      where not exists (select 1 from stage_companies t where t.company_id = s.company_id)
        and not exists (select 1 from companies c where c.company_id = s.company_id)`,
    ),
    find(
      db,
      'revenues.csv',
      (d) => `duplicate figure: document ${d} is given twice`,
      sql<Finding>`
      select s.line, s.document_id || ' for period ' || cast(s.reporting_period as text) as detail from stage_revenues s
      where exists (select 1 from stage_revenues t where t.point_id = s.point_id and t.line < s.line)`,
    ),
    find(
      db,
      'revenues.csv',
      (d) => `document_id ${d} is not in documents.csv nor in the database`,
      sql<Finding>`
      select s.line, s.document_id as detail from stage_revenues s
      where not exists (select 1 from stage_documents t where t.document_id = s.document_id)
        and not exists (select 1 from documents d where d.document_id = s.document_id)`,
    ),
    find(
      db,
      'revenues.csv',
      (d) => `document ${d}`,
      sql<Finding>`
      select s.line, s.document_id || ' belongs to company ' || coalesce(t.company_id, d.company_id) || ', not ' || s.company_id as detail
      from stage_revenues s
      left join stage_documents t on t.document_id = s.document_id
      left join documents d on d.document_id = s.document_id
      where coalesce(t.company_id, d.company_id) <> s.company_id`,
    ),
  ]);
  return checks.flat();
}
