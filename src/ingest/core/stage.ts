import { CompiledQuery, type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.js';

/**
 * Temporary tables a bundle is streamed into before it is checked as a whole and applied. Each
 * row keeps the `line` it came from, so a whole-bundle check can still say `file:line`.
 */
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
    cik: string | null;
    /** CIKs the company also files under (design §19.4), space-separated, ten digits each; null for none. */
    other_ciks: string | null;
    line: number;
  };
  /** `stage_companies.other_ciks`, one row each ({@link stageOtherCiks}). */
  stage_company_ciks: { company_id: string; cik: string; line: number };
  stage_listings: { company_id: string; ticker: string; mic_code: string; isin: string | null; line: number };
  stage_documents: {
    document_id: string;
    company_id: string;
    title: string;
    source_url: string;
    published_on: string;
    reporting_period: number;
    status: string;
    form: string | null;
    accession: string | null;
    kind: string;
    main_document_url: string | null;
    /** Both null when the bundle leaves them out. */
    source: string | null;
    source_key: string | null;
    line: number;
  };
  /** Every rate the import converted with, from the database or the bundle: a few thousand rows at most. */
  stage_rates: { currency: string; year: number; usd_per_unit: string; source: string; line: number };
};

export type StageTable = keyof StageTables;
export type StageDb = Kysely<Database & StageTables>;

/** Column order of each stage table: staged rows are arrays in this order, `line` last. */
export const STAGE_COLUMNS = {
  stage_fx: ['currency', 'year', 'usd_per_unit', 'source', 'line'],
  stage_companies: ['company_id', 'name', 'country', 'lei', 'ticker', 'mic_code', 'isin', 'cik', 'other_ciks', 'line'],
  stage_company_ciks: ['company_id', 'cik', 'line'],
  stage_listings: ['company_id', 'ticker', 'mic_code', 'isin', 'line'],
  stage_documents: [
    'document_id',
    'company_id',
    'title',
    'source_url',
    'published_on',
    'reporting_period',
    'status',
    'form',
    'accession',
    'kind',
    'main_document_url',
    'source',
    'source_key',
    'line',
  ],
  stage_rates: ['currency', 'year', 'usd_per_unit', 'source', 'line'],
} as const satisfies { [T in StageTable]: ReadonlyArray<keyof StageTables[T]> };

const TABLES = Object.keys(STAGE_COLUMNS) as StageTable[];

export async function createStage(db: Kysely<Database>): Promise<StageDb> {
  const statements = [
    sql`create temporary table stage_fx (currency text, year integer, usd_per_unit text, source text, line integer)`,
    sql`create temporary table stage_companies (company_id text, name text, country text, lei text, ticker text, mic_code text, isin text, cik text, other_ciks text, line integer)`,
    sql`create temporary table stage_company_ciks (company_id text, cik text, line integer)`,
    sql`create temporary table stage_listings (company_id text, ticker text, mic_code text, isin text, line integer)`,
    sql`create temporary table stage_documents (document_id text, company_id text, title text, source_url text, published_on text, reporting_period integer, status text, form text, accession text, kind text, main_document_url text, source text, source_key text, line integer)`,
    sql`create temporary table stage_rates (currency text, year integer, usd_per_unit text, source text, line integer)`,
  ];
  await dropStage(db);
  for (const s of statements) await s.execute(db);
  return db.withTables<StageTables>();
}

/**
 * Indexes made after loading (cheaper than maintaining them row by row). Every whole-bundle check
 * looks rows up by one of these, `line` included so "an earlier row with the same key" is answered
 * from the index alone: no check scans a table once per row.
 */
export async function indexStage(db: StageDb): Promise<void> {
  const statements = [
    sql`create index stage_fx_key on stage_fx (currency, year, line)`,
    sql`create index stage_companies_key on stage_companies (company_id, line)`,
    sql`create index stage_companies_listing on stage_companies (mic_code, ticker, line)`,
    sql`create index stage_companies_isin on stage_companies (isin, line)`,
    sql`create index stage_companies_lei on stage_companies (lei, line)`,
    sql`create index stage_companies_cik on stage_companies (cik, line)`,
    sql`create index stage_company_ciks_cik on stage_company_ciks (cik, line)`,
    sql`create index stage_company_ciks_company on stage_company_ciks (company_id, cik)`,
    sql`create index stage_documents_accession on stage_documents (accession, line)`,
    sql`create index stage_listings_key on stage_listings (mic_code, ticker, line)`,
    sql`create index stage_listings_isin on stage_listings (isin, line)`,
    sql`create index stage_documents_key on stage_documents (document_id, line)`,
    sql`create index stage_documents_source on stage_documents (source, source_key, line)`,
    sql`create index stage_rates_key on stage_rates (currency, year)`,
  ];
  for (const s of statements) await s.execute(db);
  // PostgreSQL plans temporary tables blind until they are analysed; SQLite gets statistics too.
  for (const t of TABLES) await sql`analyze ${sql.table(t)}`.execute(db);
}

/**
 * One `stage_company_ciks` row per CIK of `stage_companies.other_ciks` (few companies hold any), so
 * that the checks and the apply join them as rows.
 */
export async function stageOtherCiks(db: StageDb): Promise<void> {
  const rows = await db
    .selectFrom('stage_companies')
    .select(['company_id', 'other_ciks', 'line'])
    .where('other_ciks', 'is not', null)
    .execute();
  const writer = new StageWriter(db, 'stage_company_ciks');
  for (const r of rows) {
    for (const cik of (r.other_ciks ?? '').split(' ')) if (cik !== '') await writer.add([r.company_id, cik, r.line]);
  }
  await writer.flush();
}

/** Drops the stage (if there is one): a pooled connection must not keep it for the next import. */
export async function dropStage(db: Kysely<Database>): Promise<void> {
  for (const t of TABLES) await sql`drop table if exists ${sql.table(t)}`.execute(db);
}

/** Room left for bound parameters per statement: SQLite allows 32766, PostgreSQL 65535. */
const MAX_PARAMETERS = 30_000;
const MAX_BATCH_ROWS = 2_000;

/**
 * Buffers staged rows and writes them as multi-row inserts. The statement for a full batch is
 * compiled once per table and reused with new parameters, so a million rows cost a few hundred
 * executions of one prepared statement rather than a query build per batch. One batch may be in
 * flight while the next is read: PostgreSQL inserts it while this process parses (with SQLite,
 * whose calls are synchronous, nothing overlaps and nothing changes).
 */
export class StageWriter {
  readonly #rows: unknown[][] = [];
  readonly #batch: number;
  readonly #columns: readonly string[];
  #fullBatch: string | undefined;
  #inFlight: Promise<unknown> = Promise.resolve();

  /**
   * A writer into one of the core stage tables, or (with its `columns`) into a dataset's own
   * stage table: every bundle file is staged the same way.
   */
  constructor(db: StageDb, table: StageTable);
  constructor(db: Kysely<Database>, table: string, columns: readonly string[]);
  constructor(
    private readonly db: StageDb | Kysely<Database>,
    private readonly table: string,
    columns?: readonly string[],
  ) {
    this.#columns = columns ?? STAGE_COLUMNS[table as StageTable];
    this.#batch = Math.min(MAX_BATCH_ROWS, Math.floor(MAX_PARAMETERS / this.#columns.length));
  }

  async add(row: unknown[]): Promise<void> {
    this.#rows.push(row);
    if (this.#rows.length >= this.#batch) await this.#send();
  }

  /** Writes what is buffered and waits until every batch is in. */
  async flush(): Promise<void> {
    await this.#send();
    await this.#inFlight;
  }

  async #send(): Promise<void> {
    await this.#inFlight;
    if (this.#rows.length === 0) return;
    const rows = this.#rows.splice(0, this.#rows.length);
    let text: string;
    if (rows.length < this.#batch) text = this.#compile(rows.length);
    else {
      this.#fullBatch ??= this.#compile(rows.length);
      text = this.#fullBatch;
    }
    this.#inFlight = this.db.executeQuery(CompiledQuery.raw(text, rows.flat()));
    // Handled here so a failure waits, unreported, for the next send or flush to rethrow it.
    this.#inFlight.catch(() => undefined);
  }

  /** The dialect's SQL text of an insert of `n` rows (placeholders only: values are bound). */
  #compile(n: number): string {
    const row = Object.fromEntries(this.#columns.map((c) => [c, null]));
    // The table's name and columns are the writer's own; Kysely only compiles the placeholders.
    return (this.db as Kysely<Database>)
      .insertInto(this.table as keyof Database)
      .values(Array.from({ length: n }, () => row) as never)
      .compile().sql;
  }
}
