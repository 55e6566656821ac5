import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import { PER_SHARE_USD_STEP } from '../../money/per-share.js';
import type { FigureSpec } from '../core/figure-spec.js';
import { applyFigureStage, createFigureStage, FIGURE_STAGE_COLUMNS } from '../core/figure-stage.js';
import type { ExtraStage } from '../core/staged-write.js';

export const COMPANY_LEI_COLUMNS = ['company_id', 'lei', 'line'] as const;

/** A stage table beside the core stage, and how to write its rows. */
export interface FilingsStage extends ExtraStage {
  readonly columns: readonly string[];
}

/**
 * Where a spec's figures are staged during a filings ingest: a temporary table per spec, applied
 * into the spec's table after the core stage (documents first), in the same transaction. A
 * figure's rate is its currency-year's from the stage's rates; a USD figure's is USD_RATE.
 */
export function figureStage(spec: FigureSpec): FilingsStage {
  const stageTable = `stage_filed_${spec.table}`;
  return {
    stageTable,
    columns: FIGURE_STAGE_COLUMNS,
    figureTable: spec.table,
    ...(spec.perShare === true ? { usdStep: PER_SHARE_USD_STEP } : {}),
    createStage: (db) => createFigureStage(db, stageTable),
    // Rows are made by the pipeline from checked facts; the core stage checks their documents.
    check: async () => [],
    apply: (db) => applyFigureStage(db, stageTable, spec.table),
  };
}

/**
 * The LEIs of companies a source matched by name (design §14.1), recorded on them when they have
 * none yet. (Each staged document's source and key travel in the core stage's documents.)
 */
export function leiStage(): FilingsStage {
  const leis = 'stage_company_leis';
  return {
    stageTable: leis,
    columns: COMPANY_LEI_COLUMNS,
    createStage: async (db) => {
      await sql`drop table if exists ${sql.table(leis)}`.execute(db);
      await sql`create temporary table ${sql.table(leis)} (company_id text, lei text, line integer)`.execute(db);
      await sql`create index stage_company_leis_key on ${sql.table(leis)} (company_id)`.execute(db);
    },
    check: async () => [],
    apply: async (db) => {
      await sql`update companies set lei = (select s.lei from stage_company_leis s where s.company_id = companies.company_id)
          where lei is null and company_id in (select company_id from stage_company_leis)`.execute(db);
    },
  };
}

/** A filed figure already stored, with what it takes to stage it again. */
export interface StoredFigureRow {
  source_key: string;
  published_on: string;
  period_end: string;
  original_value: number | string;
  original_ccy: string;
  point_id: string;
  document_id: string;
  reporting_period: number;
  value_usd: number | string;
  concept: string | null;
  period_start: string | null;
  candidates: string | null;
  confirmed_by: string | null;
  source_detail: string | null;
  document_period: number;
}

/** A document of the source stored for a company: what a stored figure's row takes from its document. */
export interface StoredDocument {
  document_id: string;
  source_key: string | null;
  published_on: string;
  reporting_period: number;
}

type FigureColumns = Omit<StoredFigureRow, 'source_key' | 'published_on' | 'document_period'>;

/**
 * The filed figures of `specs` already stored for a company from one source, each spec's in the
 * order its own table gives them: one statement for all the specs (one a spec made a bulk ingest
 * of twelve datasets prepare and run twelve statements a filer). `documents` are the company's
 * documents of the source, looked up already: a figure's own come from them rather than from a
 * join in each arm (a look-up of its document per stored figure, most of the statement's time);
 * only a figure whose document they lack (of another source, or another company's) has it looked
 * up, and is kept when that is of the source.
 */
export async function storedFigureRows(
  db: Kysely<Database>,
  specs: readonly FigureSpec[],
  source: string,
  companyId: string,
  documents: ReadonlyMap<string, StoredDocument>,
): Promise<StoredFigureRow[][]> {
  const bySpec = specs.map((): StoredFigureRow[] => []);
  if (specs.length === 0) return bySpec;
  const arms = specs.map(
    (
      spec,
      i,
    ) => sql`select ${sql.lit(i)} as spec, p.period_end, p.original_value, p.original_ccy, p.point_id, p.document_id, p.reporting_period,
      p.value_usd, p.concept, p.period_start, p.candidates, p.confirmed_by, p.source_detail
    from ${sql.table(spec.table)} p where p.company_id = ${companyId} and p.period_end is not null`,
  );
  const { rows } = await sql<FigureColumns & { spec: number | string }>`${sql.join(arms, sql` union all `)}`.execute(db);
  const missing = [...new Set(rows.flatMap((r) => (documents.has(r.document_id) ? [] : [r.document_id])))];
  const others = new Map<string, StoredDocument>();
  // In slices: a parameter list stays far below either dialect's limit.
  for (let i = 0; i < missing.length; i += 500) {
    const found = await db
      .selectFrom('documents')
      .select(['document_id', 'source_key', 'published_on', 'reporting_period'])
      .where('source', '=', source)
      .where('document_id', 'in', missing.slice(i, i + 500))
      .execute();
    for (const d of found) others.set(d.document_id, d);
  }
  for (const { spec, ...row } of rows) {
    const d = documents.get(row.document_id) ?? others.get(row.document_id);
    if (d === undefined) continue;
    bySpec[Number(spec)]?.push({
      source_key: d.source_key as string,
      published_on: d.published_on,
      document_period: d.reporting_period,
      ...row,
    });
  }
  return bySpec;
}

/** Whether a spec's table holds any filed figure at all: a first ingest need not look figures up. */
export async function anyFiledFigure(db: Kysely<Database>, spec: FigureSpec): Promise<boolean> {
  const { rows } = await sql`select 1 from ${sql.table(spec.table)} where period_end is not null limit 1`.execute(db);
  return rows.length > 0;
}
