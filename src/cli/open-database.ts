import { fileURLToPath } from 'node:url';
import type { Config } from '../config.js';
import { type ConnectOptions, connect, type Db } from '../db/connect.js';
import { migrate } from '../db/migrate.js';
import type { DatasetBundle } from '../ingest/core/dataset-bundle.js';
import { importBundle } from '../ingest/sources/bundle/import-bundle.js';

/** The demo bundle shipped in the repository (see demo/SOURCES.md). */
export const DEMO_BUNDLE_DIR = fileURLToPath(new URL('../../demo/bundle', import.meta.url));

export interface OpenedDatabase {
  db: Db;
  applied: string[];
  /** 'demo' when this call seeded the demo dataset. */
  seeded: 'demo' | null;
}

/**
 * Connects, migrates, and on the very first migration records whether the database starts with
 * the demo dataset (CORPDATA_DEMO) and seeds it. The choice is made once: a database created empty
 * is never seeded later, whatever the setting then says. `bundles` are the datasets' own bundle
 * files, which the demo bundle may hold.
 */
export async function openDatabase(
  config: Config,
  bundles: readonly DatasetBundle[],
  options: Pick<ConnectOptions, 'backgroundCheckpoints'> = {},
): Promise<OpenedDatabase> {
  const db = connect(config.database, { ...options, poolSize: config.poolSize, statementTimeoutMs: config.statementTimeoutMs });
  try {
    const { applied } = await migrate(db);
    const claimed = await db.kysely
      .insertInto('settings')
      .values({ name: 'seeded', value: config.demo ? 'demo' : 'none' })
      .onConflict((oc) => oc.column('name').doNothing())
      .returning('value')
      .executeTakeFirst();
    if (claimed?.value !== 'demo') return { db, applied, seeded: null };
    try {
      await importBundle(db.kysely, DEMO_BUNDLE_DIR, bundles);
    } catch (error) {
      await db.kysely.deleteFrom('settings').where('name', '=', 'seeded').execute();
      throw error;
    }
    return { db, applied, seeded: 'demo' };
  } catch (error) {
    await db.close();
    throw error;
  }
}
