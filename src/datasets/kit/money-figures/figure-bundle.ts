import { type Kysely, sql } from 'kysely';
import type { Database, FigureTableName } from '../../../db/schema.js';
import type { DatasetBundle } from '../../../ingest/core/dataset-bundle.js';
import { applyFigureStage, createFigureStage, FIGURE_STAGE_COLUMNS } from '../../../ingest/core/figure-stage.js';
import type { ImportIssue } from '../../../ingest/core/issues.js';
import { checkFigureDocuments } from '../../../ingest/core/stage-checks.js';
import { parsePairs } from '../../../ingest/filings/ingest-filings.js';
import { stageMoneyFigure } from '../../../ingest/sources/bundle/stage-row.js';
import type { Checked } from '../../../ingest/sources/bundle/validate-row.js';
import { PER_SHARE_USD_STEP, perShareMillionths, perShareText } from '../../../money/per-share.js';
import { figurePointId } from './figure-point-id.js';
import type { MoneyFigureSpec } from './money-figure-spec.js';

const PAGE = 5000;

/** The filed-figure columns a bundle file may carry (optional), so an export round trip keeps them. */
const FILED = ['concept', 'period_start', 'period_end', 'candidates', 'confirmed_by', 'source_detail'] as const;

type ColumnSpec = Pick<MoneyFigureSpec, 'bundleCurrencyColumn' | 'perShare'>;

/**
 * The name of a spec's currency column: `ccy` unless it says otherwise (`currency` in
 * `revenues.csv`); `unit` for a per-share figure (`EUR/share`, design §18.6).
 */
const currencyColumn = (spec: ColumnSpec): string => (spec.perShare === true ? 'unit' : (spec.bundleCurrencyColumn ?? 'ccy'));

/** The columns a spec's file must hold: company, document, period, value and currency. */
const requiredColumns = (spec: ColumnSpec): readonly string[] => [
  'company_id',
  'document_id',
  'reporting_period',
  'value',
  currencyColumn(spec),
];

/** A spec's file's columns as export and the demo write them: the required ones, then the filed-figure ones. */
export const figureBundleColumns = (spec: ColumnSpec): readonly string[] => [...requiredColumns(spec), ...FILED];

/**
 * A money dataset's bundle file (design §5, §17: `company_id, document_id, reporting_period,
 * value, ccy` — `currency` in `revenues.csv` — and optionally the filed-figure columns): each row
 * checked and converted to USD with the rate of its currency-year, with the standard checks
 * (document known and the company's, period not after the document's, no figure twice), applied
 * by point id into the spec's figure table, whose USD values then follow FX rate changes.
 */
export function figureBundle(spec: MoneyFigureSpec, file: string): DatasetBundle {
  const stage = `stage_${spec.table}`;
  const table = spec.table;
  const ccy = currencyColumn(spec);
  return {
    file,
    ...(spec.bundleAlwaysListed === true ? { alwaysListed: true } : {}),
    columns: requiredColumns(spec),
    optionalColumns: FILED,
    stageTable: stage,
    stageColumns: FIGURE_STAGE_COLUMNS,
    figureTable: table,
    ...(spec.perShare === true ? { usdStep: PER_SHARE_USD_STEP } : {}),
    createStage: (db) => createFigureStage(db, stage),
    stageRow(values, rates) {
      const idOf = (documentId: string, period: number) => figurePointId(spec, documentId, period);
      if (spec.perShare === true) {
        const row = perShareRow(values);
        return row.ok ? stageMoneyFigure(row.row, rates, idOf, PER_SHARE_USD_STEP) : row;
      }
      // The row check reads `currency`, whatever the file calls it (`ccy`, as the API's records do).
      const row = ccy === 'currency' ? values : { ...values, currency: values[ccy] ?? '' };
      return stageMoneyFigure(row, rates, idOf);
    },
    async check(db) {
      await sql`create index ${sql.ref(`${stage}_key`)} on ${sql.table(stage)} (point_id, line)`.execute(db);
      await sql`analyze ${sql.table(stage)}`.execute(db);
      // Grouping walks the index once; only the (rare) repeated ids are looked up again. A figure
      // given three times is reported on its second and third lines, once each.
      const { rows } = await sql<{ line: number | string; document_id: string; reporting_period: number }>`
        select s.line, s.document_id, s.reporting_period from ${sql.table(stage)} s
        join (select point_id, min(line) as first from ${sql.table(stage)} group by point_id having count(*) > 1) d
          on d.point_id = s.point_id and s.line > d.first`.execute(db);
      const repeated = rows.map(
        (r): ImportIssue => ({
          file,
          line: Number(r.line),
          message: `duplicate figure: document ${r.document_id} for period ${r.reporting_period} is given twice`,
        }),
      );
      return [...repeated, ...(await checkFigureDocuments(db, stage, file))];
    },
    // A file without the filed-figure columns (written before they existed) keeps those known.
    apply: (db) => applyFigureStage(db, stage, table),
    exportRows: (db) => exportFigures(db, table, spec.perShare === true),
  };
}

/**
 * A per-share file's row as a money row: `value` (`3.28`) and the pairs' values in millionths,
 * `unit` (`EUR/share`) as its currency; a value or unit that is none answers as a row check does.
 */
function perShareRow(values: Readonly<Record<string, string>>): Checked<Record<string, string>> {
  const unit = values.unit ?? '';
  const currency = /^([A-Z]{3})\/share$/.exec(unit)?.[1];
  const value = perShareMillionths(values.value ?? '');
  const messages: string[] = [];
  if (currency === undefined) messages.push(`unit "${unit}" is not a currency per share (EUR/share)`);
  if (value === undefined) messages.push(`value "${values.value ?? ''}" is not a decimal number`);
  const candidates = pairsInMillionths(values.candidates ?? '');
  const confirmedBy = pairsInMillionths(values.confirmed_by ?? '');
  if (candidates === undefined) messages.push(`candidates: "${values.candidates}" is not a list of key=decimal pairs`);
  if (confirmedBy === undefined) messages.push(`confirmed_by: "${values.confirmed_by}" is not a list of key=decimal pairs`);
  if (messages.length > 0 || currency === undefined || value === undefined) return { ok: false, messages };
  return {
    ok: true,
    row: { ...values, currency, value: String(value), candidates: candidates ?? '', confirmed_by: confirmedBy ?? '' },
  };
}

/** `key=3.28` pairs (a per-share file's) as stored, `key=3280000`; undefined when one is malformed. */
function pairsInMillionths(text: string): string | undefined {
  if (text.trim() === '') return '';
  const items = text
    .trim()
    .split(/\s+/)
    .map((item) => {
      const at = item.lastIndexOf('=');
      const value = at < 0 ? undefined : perShareMillionths(item.slice(at + 1));
      return value === undefined ? undefined : `${item.slice(0, at)}=${value}`;
    });
  return items.some((i) => i === undefined) ? undefined : items.join(' ');
}

/** Stored pairs of a per-share figure as its file writes them: values as decimals. */
const pairsAsDecimals = (text: string | null): string | null =>
  text === null
    ? null
    : parsePairs(text)
        .map((p) => `${p.key}=${perShareText(p.value)}`)
        .join(' ');

async function* exportFigures(
  db: Kysely<Database>,
  table: FigureTableName,
  perShare: boolean,
): AsyncIterable<ReadonlyArray<string | number | null>> {
  let after = '';
  for (;;) {
    const rows = await db
      .selectFrom(table)
      .select(['point_id', 'company_id', 'document_id', 'reporting_period', 'original_value', 'original_ccy', 'value_usd'])
      .select([...FILED])
      .where('point_id', '>', after)
      .orderBy('point_id')
      .limit(PAGE)
      .execute();
    for (const p of rows) {
      // A figure known only in USD goes out as its USD value.
      const [value, ccy] = p.original_value === null ? [p.value_usd, 'USD'] : [p.original_value, p.original_ccy];
      yield [
        p.company_id,
        p.document_id,
        p.reporting_period,
        perShare ? perShareText(Number(value)) : value,
        perShare ? `${ccy}/share` : ccy,
        p.concept,
        p.period_start,
        p.period_end,
        perShare ? pairsAsDecimals(p.candidates) : p.candidates,
        perShare ? pairsAsDecimals(p.confirmed_by) : p.confirmed_by,
        p.source_detail,
      ];
    }
    const last = rows.at(-1);
    if (last === undefined || rows.length < PAGE) return;
    after = last.point_id;
  }
}
