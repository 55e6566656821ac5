import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import type { DatabaseConfig } from '../../src/config.js';
import { connect, type Db, type Dialect } from '../../src/db/connect.js';
import { migrate } from '../../src/db/migrate.js';

export interface TestDatabase {
  config: DatabaseConfig;
  /** The CORPDATA_DATABASE value for a child process. */
  url: string;
  drop(): Promise<void>;
}

function adminUrl(): string {
  const url = process.env.CORPDATA_TEST_PG_URL ?? inject('pgUrl');
  if (url === undefined || url === '') throw new Error('no PostgreSQL server for the tests (CORPDATA_TEST_PG_URL)');
  return url;
}

/** A fresh, empty database of the dialect: a new SQLite file, or a new PostgreSQL database. */
export async function createTestDatabase(dialect: Dialect): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'corpdata-test-'));
    const path = join(dir, 'corpdata.db');
    return {
      config: { kind: 'sqlite', path },
      url: `sqlite:${path}`,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const admin = adminUrl();
  const name = `corpdata_test_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`create database ${name}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    config: { kind: 'postgres', url: url.toString() },
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/**
 * A fresh database of `dialect` for the tests of the enclosing `describe`, with a connection to it:
 * made (and migrated to the newest schema when `migrated`) before them, closed and dropped after
 * them. Read `db` inside the tests, once they run.
 */
export function freshDatabase(dialect: Dialect, options: { migrated?: boolean } = {}): { readonly db: Db } {
  let database: TestDatabase | undefined;
  let db: Db | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    db = connect(database.config);
    if (options.migrated === true) await migrate(db);
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });
  return {
    get db(): Db {
      if (db === undefined) throw new Error('freshDatabase: read db inside a test, once the database is made');
      return db;
    },
  };
}
