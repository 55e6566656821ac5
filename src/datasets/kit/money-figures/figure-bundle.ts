import { type Kysely, sql } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { DatasetBundle } from '../../../ingest/bundle/dataset-bundle.js';
import { stageMoneyFigure } from '../../../ingest/bundle/stage-row.js';
import type { ImportIssue } from '../../../ingest/core/issues.js';
import { USD_RATE } from '../../../ingest/core/rates.js';
import { checkFigureDocuments } from '../../../ingest/core/stage-checks.js';
import { figurePointId } from './figure-point-id.js';
import { figureTable } from './figure-table.js';
import type { MoneyFigureSpec } from './money-figure-spec.js';

const PAGE = 5000;

/** The filed-figure columns a bundle may carry, as `revenues.csv` does, so an export round trip keeps them. */
const FILED = ['concept', 'period_start', 'period_end', 'candidates', 'confirmed_by', 'source_detail'] as const;

/** The file's columns as export and the demo write them: the required ones, then the filed-figure ones. */
export const FIGURE_BUNDLE_COLUMNS: readonly string[] = [
  'company_id',
  'document_id',
  'reporting_period',
  'value',
  'ccy',
  ...FILED,
];

const STAGE_COLUMNS = [
  'point_id',
  'company_id',
  'document_id',
  'reporting_period',
  'original_value',
  'original_ccy',
  'value_usd',
  'rate_currency',
  ...FILED,
  'line',
];

/**
 * A money dataset's bundle file (DESIGN §17: `company_id, document_id, reporting_period, value,
 * ccy`, and optionally the filed-figure columns of `revenues.csv`): each row checked and converted
 * to USD as a revenue row is, with the standard checks (document known and the company's, period
 * not after the document's, no figure twice), applied by point id into the spec's figure table,
 * whose USD values then follow FX rate changes like revenues'.
 */
export function figureBundle(spec: MoneyFigureSpec, file: string): DatasetBundle {
  const stage = `stage_${spec.table}`;
  const table = spec.table;
  return {
    file,
    columns: ['company_id', 'document_id', 'reporting_period', 'value', 'ccy'],
    optionalColumns: FILED,
    stageTable: stage,
    stageColumns: STAGE_COLUMNS,
    figureTable: table,
    async createStage(db) {
      await sql`drop table if exists ${sql.table(stage)}`.execute(db);
      await sql`create temporary table ${sql.table(stage)} (point_id text, company_id text, document_id text,
        reporting_period integer, original_value bigint, original_ccy text, value_usd bigint, rate_currency text,
        concept text, period_start text, period_end text, candidates text, confirmed_by text, source_detail text, line integer)`.execute(
        db,
      );
    },
    stageRow(values, rates) {
      // The file names the currency `ccy`, as the API's records do; the row check reads `currency`.
      return stageMoneyFigure({ ...values, currency: values.ccy ?? '' }, rates, (documentId, period) =>
        figurePointId(spec, documentId, period),
      );
    },
    async check(db) {
      await sql`create index ${sql.ref(`${stage}_key`)} on ${sql.table(stage)} (point_id, line)`.execute(db);
      const { rows } = await sql<{ line: number | string; document_id: string; reporting_period: number; earlier: number }>`
        select s.line, s.document_id, s.reporting_period, e.line as earlier from ${sql.table(stage)} s
        join ${sql.table(stage)} e on e.point_id = s.point_id and e.line < s.line`.execute(db);
      const repeated = rows.map(
        (r): ImportIssue => ({
          file,
          line: Number(r.line),
          message: `duplicate figure: document ${r.document_id} for period ${r.reporting_period} is on line ${r.earlier} too`,
        }),
      );
      return [...repeated, ...(await checkFigureDocuments(db, stage, file))];
    },
    async apply(db) {
      await sql`insert into ${sql.table(table)} (point_id, company_id, document_id, reporting_period, original_value,
          original_ccy, value_usd, fx_rate, fx_source, concept, period_start, period_end, candidates, confirmed_by, source_detail)
        select s.point_id, s.company_id, s.document_id, s.reporting_period, s.original_value, s.original_ccy, s.value_usd,
          coalesce(r.usd_per_unit, ${USD_RATE.usdPerUnit}), coalesce(r.source, ${USD_RATE.source}), s.concept, s.period_start,
          s.period_end, s.candidates, s.confirmed_by, s.source_detail
        from ${sql.table(stage)} s left join stage_rates r on r.currency = s.rate_currency and r.year = s.reporting_period where true
        on conflict (point_id) do update set company_id = excluded.company_id, original_value = excluded.original_value,
          original_ccy = excluded.original_ccy, value_usd = excluded.value_usd, fx_rate = excluded.fx_rate,
          fx_source = excluded.fx_source, concept = excluded.concept, period_start = excluded.period_start,
          period_end = excluded.period_end, candidates = excluded.candidates, confirmed_by = excluded.confirmed_by,
          source_detail = excluded.source_detail`.execute(db);
    },
    exportRows: (db) => exportFigures(db, table),
  };
}

async function* exportFigures(db: Kysely<Database>, table: string): AsyncIterable<ReadonlyArray<string | number | null>> {
  let after = '';
  for (;;) {
    const rows = await db
      .selectFrom(figureTable(table))
      .select(['point_id', 'company_id', 'document_id', 'reporting_period', 'original_value', 'original_ccy', 'value_usd'])
      .select([...FILED])
      .where('point_id', '>', after)
      .orderBy('point_id')
      .limit(PAGE)
      .execute();
    for (const p of rows) {
      // A figure known only in USD goes out as its USD value, as revenues.csv's do.
      const [value, ccy] = p.original_value === null ? [p.value_usd, 'USD'] : [p.original_value, p.original_ccy];
      yield [
        p.company_id,
        p.document_id,
        p.reporting_period,
        value,
        ccy,
        p.concept,
        p.period_start,
        p.period_end,
        p.candidates,
        p.confirmed_by,
        p.source_detail,
      ];
    }
    const last = rows.at(-1);
    if (last === undefined || rows.length < PAGE) return;
    after = last.point_id;
  }
}
