import { type Kysely, type RawBuilder, sql } from 'kysely';
import { checkFilingOwners } from './filing-owner-checks.js';
import type { ImportIssue } from './issues.js';
import type { StageDb, StageTable } from './stage.js';

interface Finding {
  line: number | string;
  detail: string | null;
}

async function find(db: StageDb, file: string, message: (detail: string) => string, query: RawBuilder<Finding>) {
  const { rows } = await query.execute(db);
  return rows.map((r): ImportIssue => ({ file, line: Number(r.line), message: message(r.detail ?? '') }));
}

/**
 * Rows repeating a key of an earlier row of the same table. Grouping walks the stage's index in
 * key order once; only the (rare) repeated keys are looked up again.
 */
function repeated(table: StageTable, key: readonly string[], detail: RawBuilder<unknown>): RawBuilder<Finding> {
  const columns = sql.join(key.map((k) => sql.ref(k)));
  const on = sql.join(
    key.map((k) => sql`d.${sql.ref(k)} = s.${sql.ref(k)}`),
    sql` and `,
  );
  return sql<Finding>`
    select s.line, ${detail} as detail from ${sql.table(table)} s
    join (select ${columns}, min(line) as first from ${sql.table(table)} group by ${columns} having count(*) > 1) d
      on ${on} and s.line > d.first`;
}

/** A listing that would move away from a company that keeps no other primary listing. */
const MOVED_PRIMARY = (file: string, table: 'stage_companies' | 'stage_listings') => (db: StageDb) =>
  find(
    db,
    file,
    (d) => `${d} in the database; give that company another primary listing in companies.csv first`,
    sql<Finding>`
    select s.line, 'ticker ' || s.ticker || ' on ' || s.mic_code || ' is the primary listing of company ' || l.company_id as detail
    from ${sql.table(table)} s join listings l on l.mic_code = s.mic_code and l.ticker = s.ticker
    where l.company_id <> s.company_id and l.is_primary = 1
      and not exists (select 1 from stage_companies u where u.company_id = l.company_id)`,
  );

/** A row naming a company that is neither in companies.csv nor in the database. */
const UNKNOWN_COMPANY = (file: string, table: 'stage_listings' | 'stage_documents') => (db: StageDb) =>
  find(
    db,
    file,
    (d) => `company_id ${d} is not in companies.csv nor in the database`,
    sql<Finding>`
    select s.line, s.company_id as detail from ${sql.table(table)} s
    where not exists (select 1 from stage_companies t where t.company_id = s.company_id)
      and not exists (select 1 from companies c where c.company_id = s.company_id)`,
  );

/**
 * Whole-bundle checks the row validators cannot make: duplicate keys, references to unknown
 * companies or documents (in the bundle or already in the database), figures for a period after
 * the one their document reports on, and identifiers that clash. Each is one query answered from
 * the stage's indexes and the schema's keys, so a million rows are checked in seconds.
 */
const CHECKS: Array<(db: StageDb) => Promise<ImportIssue[]>> = [
  (db) =>
    find(
      db,
      'fx_rates.csv',
      (d) => `duplicate rate for ${d}`,
      repeated('stage_fx', ['currency', 'year'], sql`s.currency || ' ' || cast(s.year as text)`),
    ),
  (db) =>
    find(db, 'companies.csv', (d) => `duplicate company_id ${d}`, repeated('stage_companies', ['company_id'], sql`s.company_id`)),
  (db) =>
    find(
      db,
      'companies.csv',
      (d) => `ticker ${d} is listed twice in the bundle`,
      repeated('stage_companies', ['mic_code', 'ticker'], sql`s.ticker || ' on ' || s.mic_code`),
    ),
  (db) =>
    find(
      db,
      'listings.csv',
      (d) => `ticker ${d} is listed twice in the bundle`,
      sql<Finding>`
      select s.line, s.ticker || ' on ' || s.mic_code as detail from stage_listings s
      where exists (select 1 from stage_listings t where t.mic_code = s.mic_code and t.ticker = s.ticker and t.line < s.line)
         or exists (select 1 from stage_companies t where t.mic_code = s.mic_code and t.ticker = s.ticker)`,
    ),
  MOVED_PRIMARY('companies.csv', 'stage_companies'),
  MOVED_PRIMARY('listings.csv', 'stage_listings'),
  (db) =>
    find(
      db,
      'companies.csv',
      (d) => `isin ${d} is used twice`,
      sql<Finding>`
      select s.line, s.isin as detail from stage_companies s where s.isin is not null and (
        exists (select 1 from stage_companies t where t.isin = s.isin and t.line < s.line)
        or exists (select 1 from listings l where l.isin = s.isin and not (l.mic_code = s.mic_code and l.ticker = s.ticker)))`,
    ),
  (db) =>
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
  (db) =>
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
  // A company restaged without a cik keeps its own (the cik column is optional), so it still counts.
  (db) =>
    find(
      db,
      'companies.csv',
      (d) => `cik ${d} belongs to another company`,
      sql<Finding>`
      select s.line, s.cik as detail from stage_companies s where s.cik is not null and (
        exists (select 1 from stage_companies t where t.cik = s.cik and t.line < s.line)
        or exists (select 1 from companies c where c.cik = s.cik and c.company_id <> s.company_id
          and not exists (select 1 from stage_companies u where u.company_id = c.company_id and u.cik is not null and u.cik <> c.cik)))`,
    ),
  // A further CIK (design §19.4) is this company's alone, as its own CIK is.
  (db) =>
    find(
      db,
      'companies.csv',
      (d) => `other_ciks: cik ${d} belongs to another company`,
      sql<Finding>`
      select o.line, o.cik as detail from stage_company_ciks o where
        exists (select 1 from stage_companies t where t.cik = o.cik and t.company_id <> o.company_id)
        or exists (select 1 from stage_company_ciks t where t.cik = o.cik and t.line < o.line)
        or exists (select 1 from companies c where c.cik = o.cik and c.company_id <> o.company_id)
        or exists (select 1 from company_identifiers i where i.kind = 'cik' and i.value = o.cik and i.company_id <> o.company_id)`,
    ),
  UNKNOWN_COMPANY('listings.csv', 'stage_listings'),
  (db) =>
    find(
      db,
      'documents.csv',
      (d) => `duplicate document_id ${d}`,
      repeated('stage_documents', ['document_id'], sql`s.document_id`),
    ),
  (db) =>
    find(
      db,
      'documents.csv',
      (d) => `accession ${d} is another document's`,
      sql<Finding>`
      select s.line, s.accession as detail from stage_documents s where s.accession is not null and (
        exists (select 1 from stage_documents t where t.accession = s.accession and t.line < s.line)
        or exists (select 1 from documents d where d.accession = s.accession and d.document_id <> s.document_id))`,
    ),
  (db) =>
    find(
      db,
      'documents.csv',
      (d) => `${d} is another document's`,
      sql<Finding>`
      select s.line, 'source ' || s.source || ' key ' || s.source_key as detail from stage_documents s
      where s.source is not null and (
        exists (select 1 from stage_documents t where t.source = s.source and t.source_key = s.source_key and t.line < s.line)
        or exists (select 1 from documents d where d.source = s.source and d.source_key = s.source_key and d.document_id <> s.document_id))`,
    ),
  // A known document keeps the source it has, unless that is the bundle (a bundle's document found
  // to be a filing): a row naming another source or key for it says something untrue of it.
  (db) =>
    find(
      db,
      'documents.csv',
      (d) => d,
      sql<Finding>`
      select s.line, 'document ' || s.document_id || ' is source ' || d.source || ' key ' || d.source_key
        || ' in the database, not source ' || s.source || ' key ' || s.source_key as detail
      from stage_documents s join documents d on d.document_id = s.document_id
      where s.source is not null and d.source <> 'bundle' and (d.source <> s.source or d.source_key <> s.source_key)`,
    ),
  UNKNOWN_COMPANY('documents.csv', 'stage_documents'),
];

interface FigureDocument {
  line: number | string;
  document_id: string;
  company_id: string;
  reporting_period: number | string;
  owner: string | null;
  document_period: number | string | null;
}

/**
 * Every figure's document, from the bundle or else the database, in one pass: known, same company,
 * not earlier. For each money dataset's stage (columns as `revenue_points`).
 */
export async function checkFigureDocuments<DB>(db: Kysely<DB>, stageTable: string, file: string): Promise<ImportIssue[]> {
  const owner = sql`coalesce(t.company_id, d.company_id)`;
  const documentPeriod = sql`coalesce(t.reporting_period, d.reporting_period)`;
  const { rows } = await sql<FigureDocument>`
    select s.line, s.document_id, s.company_id, s.reporting_period, ${owner} as owner, ${documentPeriod} as document_period
    from ${sql.table(stageTable)} s
    left join stage_documents t on t.document_id = s.document_id
    left join documents d on d.document_id = s.document_id
    where ${owner} is null or ${owner} <> s.company_id or ${documentPeriod} < s.reporting_period`.execute(db);
  return rows.map((r): ImportIssue => {
    const at = { file, line: Number(r.line) };
    if (r.owner === null) return { ...at, message: `document_id ${r.document_id} is not in documents.csv nor in the database` };
    if (r.owner !== r.company_id) {
      return { ...at, message: `document ${r.document_id} belongs to company ${r.owner}, not ${r.company_id}` };
    }
    return {
      ...at,
      message: `reporting_period ${r.reporting_period} is after ${r.document_period}, the period its document reports on`,
    };
  });
}

/** Runs every whole-bundle check; the issues come back unsorted. */
export async function checkStage(db: StageDb): Promise<ImportIssue[]> {
  const issues: ImportIssue[] = [];
  for (const check of CHECKS) issues.push(...(await check(db)));
  issues.push(...(await checkFilingOwners(db)));
  return issues;
}
