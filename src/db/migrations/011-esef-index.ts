import type { Kysely } from 'kysely';
import type { Dialect } from '../connect.js';

/**
 * ESEF reports as filings.xbrl.org's index lists them (design §14.5): one row per `fxo_id`, with
 * the filer's LEI and country, the period end, when the report was added (a document's
 * published_on) and its report, viewer, JSON and package URLs. Written by `ingest esef-index`;
 * read when reports are ingested and synced.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('esef_filings')
    .addColumn('fxo_id', 'text', (c) => c.primaryKey())
    .addColumn('filing_id', 'text')
    .addColumn('country', 'text')
    .addColumn('lei', 'text')
    .addColumn('entity_name', 'text')
    .addColumn('period_end', 'text', (c) => c.notNull())
    .addColumn('date_added', 'text')
    .addColumn('processed', 'text')
    .addColumn('report_url', 'text')
    .addColumn('viewer_url', 'text')
    .addColumn('json_url', 'text')
    .addColumn('package_url', 'text')
    .execute();
  await db.schema.createIndex('esef_filings_lei').on('esef_filings').columns(['lei', 'period_end']).execute();
}
