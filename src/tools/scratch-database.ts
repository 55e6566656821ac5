import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createAccount } from '../accounts/accounts.js';
import { createKey } from '../auth/api-keys.js';
import type { DatabaseConfig } from '../config.js';
import { bundlesOf, subscriptionsOf } from '../datasets/dataset-list.js';
import { DATASETS } from '../datasets/registry.js';
import { connect, type Db, type Dialect } from '../db/connect.js';
import { migrate } from '../db/migrate.js';
import type { Subscription } from '../db/schema.js';
import { importBundle } from '../ingest/sources/bundle/import-bundle.js';
import { startThrowawayPostgres } from '../scratch/throwaway-postgres.js';

/**
 * The tools' data by default: the test fixture's few companies. They stress inputs and billing,
 * not catalog size, and a small catalog keeps each request cheap on a shared machine.
 */
export const FIXTURE_BUNDLE_DIR = fileURLToPath(new URL('../../test/fixtures/bundle', import.meta.url));

export const TOOL_SECRET = 'corpdata-tools-secret-0123456789abcdef';

export interface ToolAccount {
  accountId: string;
  key: string;
}

/** A migrated database holding the demo data, made for one run of a tool and removed after it. */
export interface ScratchDatabase {
  /** The CORPDATA_DATABASE value for servers. */
  url: string;
  config: DatabaseConfig;
  db: Db;
  /** For PostgreSQL: an admin URL of the same server (to end connections). */
  adminUrl: string | null;
  account(credits: number, subscription?: Subscription): Promise<ToolAccount>;
  /** Real identifiers of the catalog, by query parameter name. */
  examples(): Promise<Record<string, string[]>>;
  remove(): Promise<void>;
}

/** Creates a scratch database (an SQLite file in a temporary folder, or a throwaway PostgreSQL cluster) holding `bundle`. */
export async function scratchDatabase(dialect: Dialect, bundle: string = FIXTURE_BUNDLE_DIR): Promise<ScratchDatabase> {
  let config: DatabaseConfig;
  let url: string;
  let adminUrl: string | null = null;
  let cleanup: () => void;
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'corpdata-tool-'));
    url = `sqlite:${join(dir, 'corpdata.db')}`;
    config = { kind: 'sqlite', path: join(dir, 'corpdata.db') };
    cleanup = () => rmSync(dir, { recursive: true, force: true });
  } else {
    const server = startThrowawayPostgres();
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    await client.query('create database corpdata_tool');
    await client.end();
    const u = new URL(server.url);
    u.pathname = '/corpdata_tool';
    url = u.toString();
    adminUrl = server.url;
    config = { kind: 'postgres', url };
    cleanup = () => server.stop();
  }
  const db = connect(config, { poolSize: 4, statementTimeoutMs: 0 });
  await migrate(db);
  await importBundle(db.kysely, bundle, bundlesOf(DATASETS));
  let counter = 0;
  return {
    url,
    config,
    db,
    adminUrl,
    account: async (credits, subscription = 'revenues') => {
      counter += 1;
      const a = await createAccount(
        db.kysely,
        {
          email: `tool${counter}@example.com`,
          credits,
          subscriptions: subscription === 'none' ? [] : undefined,
          now: new Date(),
        },
        subscriptionsOf(DATASETS),
      );
      const k = await createKey(db.kysely, { accountId: a.account_id, name: 'tool', secret: TOOL_SECRET, now: new Date() });
      return { accountId: a.account_id, key: k.api_key };
    },
    examples: async () => {
      const listings = await db.kysely.selectFrom('listings').select(['ticker', 'mic_code', 'isin', 'company_id']).execute();
      const companies = await db.kysely.selectFrom('companies').select(['name', 'lei', 'company_id']).execute();
      const present = (xs: Array<string | null>) => xs.filter((x): x is string => x !== null);
      return {
        ticker: listings.map((l) => l.ticker),
        mic_code: listings.map((l) => l.mic_code),
        isin: present(listings.map((l) => l.isin)),
        lei: present(companies.map((c) => c.lei)),
        company_id: companies.map((c) => c.company_id),
        query: companies.map((c) => c.name.split(' ')[0] ?? c.name),
      };
    },
    remove: async () => {
      await db.close();
      cleanup();
    },
  };
}
