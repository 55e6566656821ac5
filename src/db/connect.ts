import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase as SqliteDialectDatabase } from 'kysely';
import pg from 'pg';
import { type DatabaseConfig, parsePostgresHosts } from '../config.js';
import { checkpointInBackground } from './checkpointer.js';
import type { Database } from './schema.js';
import { WritableHost } from './writable-host.js';

export type Dialect = DatabaseConfig['kind'];

/**
 * A Kysely handle plus the one fact the few dialect branches need; on SQLite also the connection
 * itself and its statement cache, for the billed path's synchronous transactions, and on
 * PostgreSQL the pool, for the billed path's one-statement batches (see fixed-transaction.ts).
 */
export type Db =
  | (DbOf<'postgres'> & {
      /** The pool Kysely draws from: a statement run on it is its own transaction. */
      readonly pool: pg.Pool;
    })
  | (DbOf<'sqlite'> & {
      readonly sqlite: SqliteDatabase.Database;
      /** The prepared statement of a SQL text, kept by text (the cache Kysely's statements use too). */
      readonly prepare: (text: string) => SqliteDatabase.Statement;
    });

interface DbOf<D extends Dialect> {
  readonly kysely: Kysely<Database>;
  readonly dialect: D;
  close(): Promise<void>;
}

const PG_INT8 = 20;

/** BIGINT columns hold credits and values: numbers, refused if beyond JavaScript's safe range. */
function parseInt8(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new RangeError(`integer ${text} is beyond the safe range`);
  return n;
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every statement anew; on the hot path preparing costs more than running. The
 * queries are few and fixed, so prepared statements are kept by SQL text (bounded, oldest out).
 */
function statementCache(sqlite: SqliteDatabase.Database): (text: string) => SqliteDatabase.Statement {
  const cache = new Map<string, SqliteDatabase.Statement>();
  return (text) => {
    let statement = cache.get(text);
    if (statement === undefined) {
      statement = sqlite.prepare(text);
      if (cache.size >= STATEMENT_CACHE_SIZE) {
        const oldest = cache.keys().next().value;
        if (oldest !== undefined) cache.delete(oldest);
      }
      cache.set(text, statement);
    }
    return statement;
  };
}

export interface ConnectOptions {
  poolSize?: number;
  statementTimeoutMs?: number;
  /**
   * SQLite: checkpoint the write-ahead log on a worker thread of its own rather than on this
   * connection (see checkpointer.ts), until the database is closed. For a serving process.
   */
  backgroundCheckpoints?: boolean;
}

/** Opens the configured database; SQLite in WAL mode, PostgreSQL through a bounded pool. */
export function connect(config: DatabaseConfig, options: ConnectOptions = {}): Db {
  if (config.kind === 'sqlite') {
    if (config.path !== ':memory:') mkdirSync(dirname(config.path), { recursive: true });
    const sqlite = new SqliteDatabase(config.path);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    // Another process (the CLI next to a running server) may hold the write lock briefly.
    sqlite.pragma('busy_timeout = 10000');
    const prepare = statementCache(sqlite);
    const database: SqliteDialectDatabase = { close: () => sqlite.close(), prepare };
    const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
    const checkpoints = options.backgroundCheckpoints ? checkpointInBackground(sqlite, reportCheckpointFailure) : undefined;
    const close = async () => {
      await checkpoints?.stop();
      await kysely.destroy();
      // Kysely closes the connection only if it ever used it.
      if (sqlite.open) sqlite.close();
    };
    return { kysely, dialect: 'sqlite', sqlite, prepare, close };
  }
  // A multi-host URL (design §21.1): each new connection goes to the writable server among them.
  const hosts = parsePostgresHosts(config.url);
  const writable = hosts === null ? undefined : new WritableHost(hosts);
  const pool = new pg.Pool({
    connectionString: hosts === null ? config.url : hosts.urls[0],
    ...(writable === undefined ? {} : { Client: writable.clientClass() }),
    max: options.poolSize ?? 10,
    statement_timeout: options.statementTimeoutMs ?? 5000,
    types: {
      getTypeParser: ((oid: number, format?: string) =>
        oid === PG_INT8 ? parseInt8 : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    },
  });
  // The server may end an idle connection (a restart, a failover, an operator): the pool discards
  // it and reports an 'error' that, unheard, would end the process. The next query opens a new one.
  pool.on('error', reportLostConnection);
  const open = new Set<pg.PoolClient>();
  let allClosed: (() => void) | undefined;
  pool.on('connect', (client) => {
    open.add(client);
    // A connection cut while checked out (between the statements of a transaction) is reported on
    // the client, where the pool does not listen: unheard, it would end the process. The statement
    // in flight fails on its own, and the pool drops the broken client when it comes back.
    client.on('error', reportLostConnection);
  });
  pool.on('remove', (client) => {
    open.delete(client);
    if (open.size === 0) allClosed?.();
  });
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  // pool.end() resolves before its connections have said goodbye; waiting for them means that after
  // close() nothing of ours is left on the server to be cut off (e.g. by dropping the database).
  const close = async () => {
    await kysely.destroy();
    if (open.size === 0) return;
    await new Promise<void>((resolve) => {
      allClosed = resolve;
      setTimeout(resolve, CLOSE_WAIT_MS).unref();
    });
  };
  return { kysely, dialect: 'postgres', pool, close };
}

const CLOSE_WAIT_MS = 5000;

function reportCheckpointFailure(error: Error): void {
  process.stderr.write(
    `corpdata: background checkpoints failed, the serving connection checkpoints by itself: ${error.message}\n`,
  );
}

function reportLostConnection(error: Error): void {
  process.stderr.write(`corpdata: database connection lost, a new one is opened on demand: ${error.message}\n`);
}
