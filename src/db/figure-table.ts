import type { Kysely } from 'kysely';

/**
 * Creates a money figure table: exactly the columns of `revenue_points` (the kit's loader, trace
 * page and provenance read these), for a migration to call with the dataset's own table name.
 * Keyed by a stable point id, so the same figures imported twice change nothing. With
 * `ifNotExists`, a table (and index) already there is left as it is.
 */
export async function createFigureTable<DB>(db: Kysely<DB>, table: string, ifNotExists = false): Promise<void> {
  let create = db.schema.createTable(table);
  if (ifNotExists) create = create.ifNotExists();
  await create
    .addColumn('point_id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.company_id'))
    .addColumn('document_id', 'text', (c) => c.notNull().references('documents.document_id'))
    .addColumn('reporting_period', 'integer', (c) => c.notNull())
    .addColumn('original_value', 'bigint')
    .addColumn('original_ccy', 'text', (c) => c.notNull())
    .addColumn('value_usd', 'bigint', (c) => c.notNull())
    .addColumn('fx_rate', 'text', (c) => c.notNull())
    .addColumn('fx_source', 'text', (c) => c.notNull())
    .addColumn('concept', 'text')
    .addColumn('period_start', 'text')
    .addColumn('period_end', 'text')
    .addColumn('candidates', 'text')
    .addColumn('confirmed_by', 'text')
    .addColumn('source_detail', 'text')
    .execute();
  const index = (name: string) => (ifNotExists ? db.schema.createIndex(name).ifNotExists() : db.schema.createIndex(name));
  await index(`${table}_company`).on(table).columns(['company_id', 'reporting_period']).execute();
  await index(`${table}_document`).on(table).column('document_id').execute();
}
