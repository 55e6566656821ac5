import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connect.js';
import { pointTables } from '../point-tables.js';

const id = (dialect: Dialect) =>
  [
    dialect === 'postgres' ? 'bigserial' : 'integer',
    (c: import('kysely').ColumnDefinitionBuilder) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()),
  ] as const;

/**
 * Events and their webhooks (design §20.3–§20.5). `events` is the outbox every write fills in its
 * own transaction; an endpoint's deliveries are made from it (one row per event and endpoint, its
 * tries and lease), each try logged in `webhook_attempts`; `event_marks` is what the events have told of each figure so far (its table,
 * company-period and a fingerprint of its value), so that the next write tells only what changed.
 * The served figures already held when this runs are marked as told: upgrading announces nothing.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const [idType, idColumn] = id(dialect);
  await db.schema
    .createTable('events')
    .addColumn('event_id', idType, idColumn)
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('occurred_at', 'text', (c) => c.notNull())
    .addColumn('company_id', 'text')
    .addColumn('points_table', 'text')
    .addColumn('reporting_period', 'integer')
    .addColumn('document_id', 'text')
    .addColumn('point_id', 'text')
    .execute();
  await db.schema.createIndex('events_occurred').on('events').column('occurred_at').execute();
  await db.schema.createIndex('events_company').on('events').columns(['company_id', 'event_id']).execute();
  await db.schema
    .createTable('event_marks')
    .addColumn('points_table', 'text', (c) => c.notNull())
    .addColumn('point_id', 'text', (c) => c.notNull())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('reporting_period', 'integer', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('event_marks_pk', ['points_table', 'point_id'])
    .execute();
  await db.schema
    .createIndex('event_marks_period')
    .on('event_marks')
    .columns(['points_table', 'company_id', 'reporting_period'])
    .execute();
  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('endpoint_id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.account_id'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('event_types', 'text', (c) => c.notNull())
    .addColumn('company_ids', 'text')
    .addColumn('datasets', 'text')
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('last_event_id', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  await db.schema.createIndex('webhook_endpoints_account').on('webhook_endpoints').column('account_id').execute();
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('delivery_id', idType, idColumn)
    .addColumn('endpoint_id', 'text', (c) => c.notNull().references('webhook_endpoints.endpoint_id'))
    .addColumn('event_id', 'bigint', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('tries', 'integer', (c) => c.notNull())
    .addColumn('next_try_at', 'text', (c) => c.notNull())
    .addColumn('leased_until', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .columns(['status', 'endpoint_id', 'delivery_id'])
    .execute();
  await db.schema
    .createTable('webhook_attempts')
    .addColumn('attempt_id', idType, idColumn)
    .addColumn('delivery_id', 'bigint', (c) => c.notNull())
    .addColumn('endpoint_id', 'text', (c) => c.notNull())
    .addColumn('attempted_at', 'text', (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('latency_ms', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .execute();
  await db.schema
    .createIndex('webhook_attempts_endpoint')
    .on('webhook_attempts')
    .columns(['endpoint_id', 'attempt_id'])
    .execute();
  for (const t of await pointTables(db)) {
    await sql`insert into event_marks (points_table, point_id, company_id, reporting_period, fingerprint)
      select ${t.name}, point_id, company_id, reporting_period, ${t.fingerprint} from ${sql.table(t.name)}
      where document_id in (select document_id from documents where status = 'processed')`.execute(db);
  }
}
