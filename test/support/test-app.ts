import type { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { createAccount } from '../../src/accounts/accounts.js';
import { buildApp } from '../../src/app.js';
import { createKey } from '../../src/auth/api-keys.js';
import { openDatabase } from '../../src/cli/open-database.js';
import { type Config, loadConfig } from '../../src/config.js';
import { ledgerSum } from '../../src/credits/ledger.js';
import type { Dataset } from '../../src/datasets/dataset.js';
import { bundlesOf, subscriptionsOf } from '../../src/datasets/dataset-list.js';
import type { Db, Dialect } from '../../src/db/connect.js';
import type { Subscription } from '../../src/db/schema.js';
import { importBundle } from '../../src/ingest/sources/bundle/import-bundle.js';
import { apiGet, apiPost, type Response } from './api-client.js';
import { DATASETS } from './datasets.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

export const FIXTURE_BUNDLE = fileURLToPath(new URL('../fixtures/bundle', import.meta.url));
/** Emission figures (and their reports) for companies of the fixture bundle; import it after that one. */
export const GHG_BUNDLE = fileURLToPath(new URL('../fixtures/ghg-bundle', import.meta.url));
/** Apple Inc.'s real revenue and emissions, for the console's explorer (its SOURCES.md credits them). */
export const EXPLORER_BUNDLE = fileURLToPath(new URL('../fixtures/explorer-bundle', import.meta.url));
export const TEST_SECRET = 'corpdata-test-secret-0123456789abcdef';
export const PUBLIC_URL = 'http://corpdata.test';

export interface TestAccount {
  accountId: string;
  email: string;
  key: string;
  keyId: string;
}

export interface TestApp {
  url: string;
  dialect: Dialect;
  database: TestDatabase;
  db: Db;
  config: Config;
  app: FastifyInstance;
  /** GET over real HTTP; every API response is checked against the OpenAPI document. */
  get(path: string, key?: string | null, headers?: Record<string, string>): Promise<Response>;
  /** POST of a JSON body over real HTTP, checked against the OpenAPI document as `get` is. */
  post(path: string, body: unknown, key?: string | null, headers?: Record<string, string>): Promise<Response>;
  /** An account with a key; it holds every subscription unless `subscription` or `subscriptions` says otherwise. */
  account(options?: AccountOptions): Promise<TestAccount>;
  /** Asserts that every account's ledger sums to its balance. */
  expectLedgersBalance(): Promise<void>;
  /** Checks the ledgers once more, then stops the app and drops its database. */
  close(): Promise<void>;
}

export interface AccountOptions {
  credits?: number;
  /** The single subscription of old: `revenues` only, or `none`. */
  subscription?: Subscription;
  subscriptions?: readonly string[];
  password?: string;
}

let counter = 0;

/** Asserts that every account's ledger sums to its balance, and no balance is negative. */
export async function expectLedgersBalance(db: Db): Promise<void> {
  const accounts = await db.kysely.selectFrom('accounts').select(['account_id', 'balance']).execute();
  for (const a of accounts) {
    expect(await ledgerSum(db.kysely, a.account_id), `ledger of ${a.account_id}`).toBe(Number(a.balance));
    expect(Number(a.balance)).toBeGreaterThanOrEqual(0);
  }
}

export function testConfig(database: TestDatabase, extra: Record<string, string> = {}): Config {
  return loadConfig({
    CORPDATA_DATABASE: database.url,
    CORPDATA_DEMO: 'off',
    CORPDATA_SECRET: TEST_SECRET,
    CORPDATA_PUBLIC_URL: PUBLIC_URL,
    CORPDATA_SYNC_INTERVAL_MS: '50',
    LOG_LEVEL: 'silent',
    // Tests burst from one address; the default limit has tests of its own (test/limits.test.ts).
    CORPDATA_RATE_LIMIT: '1000000/s',
    ...extra,
  });
}

export interface StartOptions {
  /** The bundle to load: the fixture by default, null for none. */
  bundle?: string | null;
  /** Further bundles to import after it, in order. */
  more?: readonly string[];
  /** Configuration on top of {@link testConfig}'s. */
  env?: Record<string, string>;
  clock?: () => Date;
  /** Where the app logs (silent by default). */
  logTo?: Writable;
  /** The datasets the app serves (and its bundles hold): every registered one by default. */
  datasets?: readonly Dataset[];
  /** Runs on the migrated database before any bundle is imported (a test dataset's own table). */
  prepare?: (db: Db) => Promise<void>;
}

/** A running app on a fresh database of `dialect`, loaded with the fixture bundle unless told otherwise. */
export async function startApp(dialect: Dialect, options: StartOptions = {}): Promise<TestApp> {
  const database = await createTestDatabase(dialect);
  const config = testConfig(database, options.env);
  const datasets = options.datasets ?? DATASETS;
  const bundles = bundlesOf(datasets);
  const subscriptions = subscriptionsOf(datasets);
  const { db } = await openDatabase(config, bundles);
  await options.prepare?.(db);
  const bundle = options.bundle === undefined ? FIXTURE_BUNDLE : options.bundle;
  if (bundle !== null) await importBundle(db.kysely, bundle, bundles);
  for (const next of options.more ?? []) await importBundle(db.kysely, next, bundles);
  const app = await buildApp({
    config,
    db,
    datasets,
    logTo: options.logTo ?? false,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  const url = `http://127.0.0.1:${address.port}`;
  const get = (path: string, key?: string | null, headers: Record<string, string> = {}): Promise<Response> =>
    apiGet(url, path, key, headers);

  const account = async (o: AccountOptions = {}): Promise<TestAccount> => {
    counter += 1;
    const email = `user${counter}-${Date.now()}@example.com`;
    const a = await createAccount(
      db.kysely,
      {
        email,
        credits: o.credits ?? 1000,
        ...(o.subscriptions !== undefined
          ? { subscriptions: o.subscriptions }
          : o.subscription !== undefined
            ? { subscriptions: o.subscription === 'none' ? [] : ['revenues'] }
            : {}),
        ...(o.password === undefined ? {} : { password: o.password }),
        now: new Date(),
      },
      subscriptions,
    );
    const k = await createKey(db.kysely, { accountId: a.account_id, name: 'test', secret: TEST_SECRET, now: new Date() });
    return { accountId: a.account_id, email, key: k.api_key, keyId: k.key_id };
  };

  return {
    url,
    dialect,
    database,
    db,
    config,
    app,
    get,
    post: (path, body, key, headers = {}) => apiPost(url, path, body, key, headers),
    account,
    expectLedgersBalance: () => expectLedgersBalance(db),
    close: async () => {
      await app.close();
      try {
        await expectLedgersBalance(db);
      } finally {
        await db.close();
        await database.drop();
      }
    },
  };
}
