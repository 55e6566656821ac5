import { randomBytes } from 'node:crypto';
import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import type { Db } from './connect.js';
import { createFigureTable } from './figure-table.js';
import * as initial from './migrations/001-initial.js';
import * as secFilings from './migrations/002-sec-filings.js';
import * as datasets from './migrations/003-datasets.js';
import * as ledgerRowid from './migrations/004-ledger-rowid.js';
import * as chargeFunction from './migrations/005-charge-function.js';
import * as chargeAll from './migrations/006-charge-all.js';
import * as documentKind from './migrations/007-document-kind.js';
import * as filingMainDocument from './migrations/008-filing-main-document.js';
import * as ledgerDetail from './migrations/009-ledger-detail.js';
import * as documentSource from './migrations/010-document-source.js';
import * as esefIndex from './migrations/011-esef-index.js';
import * as syncState from './migrations/012-sync-state.js';
import * as netIncome from './migrations/013-net-income.js';
import * as figureSourceDetail from './migrations/014-figure-source-detail.js';
import * as chargeGenericPlans from './migrations/015-charge-generic-plans.js';
import * as ledgerAdjustment from './migrations/016-ledger-adjustment.js';
import * as chargeOneDebit from './migrations/017-charge-one-debit.js';
import * as events from './migrations/020-events.js';
import * as freshness from './migrations/021-freshness.js';
import * as companyIdentifiers from './migrations/022-company-identifiers.js';
import { type Database, LINE_ITEM_TABLES } from './schema.js';

function provider(db: Db): MigrationProvider {
  const bind = (m: { up(db: Kysely<unknown>, dialect: Db['dialect']): Promise<void> }): Migration => ({
    up: (k) => m.up(k, db.dialect),
  });
  return {
    getMigrations: async () => ({
      '001-initial': bind(initial),
      '002-sec-filings': bind(secFilings),
      '003-datasets': bind(datasets),
      '004-ledger-rowid': bind(ledgerRowid),
      '005-charge-function': bind(chargeFunction),
      '006-charge-all': bind(chargeAll),
      '007-document-kind': bind(documentKind),
      '008-filing-main-document': bind(filingMainDocument),
      '009-ledger-detail': bind(ledgerDetail),
      '010-document-source': bind(documentSource),
      '011-esef-index': bind(esefIndex),
      '012-sync-state': bind(syncState),
      '013-net-income': bind(netIncome),
      '014-figure-source-detail': bind(figureSourceDetail),
      '015-charge-generic-plans': bind(chargeGenericPlans),
      '016-ledger-adjustment': bind(ledgerAdjustment),
      '017-charge-one-debit': bind(chargeOneDebit),
      '020-events': bind(events),
      '021-freshness': bind(freshness),
      '022-company-identifiers': bind(companyIdentifiers),
    }),
  };
}

/**
 * Every line item's figure table (design §18) that is missing: derived from `LINE_ITEM_TABLES`,
 * so a line item added to the list gets its table at the next `migrate`, without a migration of
 * its own. Several processes may run this at once: the first creates, the others find it there.
 */
async function createLineItemTables(db: Db): Promise<void> {
  const existing = new Set((await db.kysely.introspection.getTables()).map((t) => t.name));
  for (const table of LINE_ITEM_TABLES) {
    if (existing.has(table)) continue;
    try {
      await createFigureTable(db.kysely, table, true);
    } catch (error) {
      // Another process creating the same table at the same moment (PostgreSQL's catalog race).
      const now = new Set((await db.kysely.introspection.getTables()).map((t) => t.name));
      if (!now.has(table)) throw error;
    }
  }
}

export interface MigrateResult {
  /** True when this call created the schema: the database was empty. */
  created: boolean;
  applied: string[];
}

/** Creates or upgrades the schema; safe to run from several processes at once (Kysely locks). */
export async function migrate(db: Db): Promise<MigrateResult> {
  const migrator = new Migrator({ db: db.kysely, provider: provider(db) });
  const { error, results } = await migrator.migrateToLatest();
  if (error !== undefined) throw error;
  await createLineItemTables(db);
  const applied = (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  return { created: applied.includes('001-initial'), applied };
}

/** Reads a setting; undefined when never set. */
export async function readSetting(db: Kysely<Database>, name: string): Promise<string | undefined> {
  const row = await db.selectFrom('settings').select('value').where('name', '=', name).executeTakeFirst();
  return row?.value;
}

/** Sets a setting only if unset, returning the value that holds afterwards (first writer wins). */
export async function settleSetting(db: Kysely<Database>, name: string, value: string): Promise<string> {
  await db
    .insertInto('settings')
    .values({ name, value })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const settled = await readSetting(db, name);
  if (settled === undefined) throw new Error(`setting ${name} vanished`);
  return settled;
}

/** The JWT signing secret: the configured one, else one generated once and kept in the database. */
export async function signingSecret(db: Kysely<Database>, configured: string | undefined): Promise<string> {
  if (configured !== undefined) return configured;
  return settleSetting(db, 'jwt_secret', randomBytes(32).toString('base64url'));
}
