import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import { USD_RATE } from './rates.js';

/**
 * Columns of a money figure's stage table, in the order rows are staged (`line` last): those of
 * its figure table (`revenue_points`'s), but for the rate, named by its currency (`rate_currency`)
 * and taken from the stage's rates when applied.
 */
export const FIGURE_STAGE_COLUMNS = [
  'point_id',
  'company_id',
  'document_id',
  'reporting_period',
  'original_value',
  'original_ccy',
  'value_usd',
  'rate_currency',
  'concept',
  'period_start',
  'period_end',
  'candidates',
  'confirmed_by',
  'source_detail',
  'line',
] as const;

/** (Re)creates a temporary stage table of {@link FIGURE_STAGE_COLUMNS}. */
export async function createFigureStage(db: Kysely<Database>, stageTable: string): Promise<void> {
  await sql`drop table if exists ${sql.table(stageTable)}`.execute(db);
  await sql`create temporary table ${sql.table(stageTable)} (point_id text, company_id text, document_id text, reporting_period integer,
    original_value bigint, original_ccy text, value_usd bigint, rate_currency text, concept text, period_start text, period_end text,
    candidates text, confirmed_by text, source_detail text, line integer)`.execute(db);
}

/**
 * Writes a figure stage into its figure table, whether a bundle or a filings ingest staged it: a
 * figure's rate is its currency-year's from the stage's rates, a USD figure's USD_RATE. A figure
 * stored already is updated; what the stage leaves empty of its filed columns (a bundle written
 * before they existed) stays as known.
 */
export async function applyFigureStage(db: Kysely<Database>, stageTable: string, figureTable: string): Promise<void> {
  const table = sql.table(figureTable);
  await sql`insert into ${table} (point_id, company_id, document_id, reporting_period, original_value, original_ccy, value_usd, fx_rate,
      fx_source, concept, period_start, period_end, candidates, confirmed_by, source_detail)
    select s.point_id, s.company_id, s.document_id, s.reporting_period, s.original_value, s.original_ccy, s.value_usd,
      coalesce(r.usd_per_unit, ${USD_RATE.usdPerUnit}), coalesce(r.source, ${USD_RATE.source}), s.concept, s.period_start, s.period_end,
      s.candidates, s.confirmed_by, s.source_detail
    from ${sql.table(stageTable)} s left join stage_rates r on r.currency = s.rate_currency and r.year = s.reporting_period where true
    on conflict (point_id) do update set company_id = excluded.company_id, original_value = excluded.original_value,
      original_ccy = excluded.original_ccy, value_usd = excluded.value_usd, fx_rate = excluded.fx_rate, fx_source = excluded.fx_source,
      concept = coalesce(excluded.concept, ${table}.concept), period_start = coalesce(excluded.period_start, ${table}.period_start),
      period_end = coalesce(excluded.period_end, ${table}.period_end),
      candidates = coalesce(excluded.candidates, ${table}.candidates),
      confirmed_by = coalesce(excluded.confirmed_by, ${table}.confirmed_by),
      source_detail = coalesce(excluded.source_detail, ${table}.source_detail)`.execute(db);
}
