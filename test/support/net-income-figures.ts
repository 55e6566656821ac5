import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Database, FigurePointTable } from '../../src/db/schema.js';
import type { FigureSpec } from '../../src/ingest/core/figure-spec.js';

// The test's own figure table, added to the schema's figure tables for the tests alone: the build
// of the product (tsconfig.build.json) never reads this file, so its schema lists no test table.
declare module '../../src/db/schema.js' {
  interface FigureTables {
    test_net_income_points: FigurePointTable;
  }
}

/**
 * A second figure spec, as net income will declare it (design §17), writing to a table the test
 * makes: the filings pipeline must give it its figures with no change of its own.
 */
export const testNetIncome: FigureSpec = {
  name: 'net-income',
  metric: 'Net Income',
  noun: 'net income',
  concepts: {
    'us-gaap': ['us-gaap:NetIncomeLoss', 'us-gaap:ProfitLoss'],
    'ifrs-full': ['ifrs-full:ProfitLossAttributableToOwnersOfParent', 'ifrs-full:ProfitLoss'],
  },
  table: 'test_net_income_points',
  bundleFile: 'net_income.csv',
  bundleColumns: [
    'company_id',
    'document_id',
    'reporting_period',
    'value',
    'ccy',
    'concept',
    'period_start',
    'period_end',
    'candidates',
    'confirmed_by',
  ],
  pointId: (documentId, period) => {
    const h = createHash('sha256').update(`test-net-income-point:${documentId}:${period}`).digest('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
  },
};

/** The spec's table, with the columns of revenue_points. */
export async function createTestNetIncomeTable(db: Kysely<Database>): Promise<void> {
  await sql`create table test_net_income_points (point_id text primary key, company_id text not null, document_id text not null,
    reporting_period integer not null, original_value bigint, original_ccy text not null, value_usd bigint not null, fx_rate text not null,
    fx_source text not null, concept text, period_start text, period_end text, candidates text, confirmed_by text, source_detail text)`.execute(
    db,
  );
}
