import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SqliteDatabase from 'better-sqlite3';

/** How often the background connection copies the write-ahead log into the database file. */
const INTERVAL_MS = 100;
/** SQLite's own threshold, in pages of log, past which a committing connection checkpoints. */
const DEFAULT_THRESHOLD_PAGES = 1_000;
/** The serving connection's threshold while the background one runs: a backstop should it fall behind. */
const BACKSTOP_THRESHOLD_PAGES = 10_000;

// Source text rather than a module file, so that it runs the same from the sources under test and
// from the build. A passive checkpoint never waits for a writer or a reader: it copies what it can.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
const checkpoint = () => db.pragma('wal_checkpoint(PASSIVE)');
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.once('message', () => {
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
`;

/** A running background checkpointer. */
export interface Checkpointer {
  /** Checkpoints once more and stops; the serving connection checkpoints by itself again. */
  stop(): Promise<void>;
}

/**
 * On SQLite, commits append to the write-ahead log, and once it holds 1,000 pages the committing
 * connection copies it into the database file (a checkpoint, with its fsync) before its commit
 * returns: on the serving connection, a pause of milliseconds on the event loop every hundred or
 * so billed batches. This moves that copying to a connection of its own on a worker thread, which
 * checkpoints every 100 ms; the serving connection keeps a threshold of its own, ten times the
 * default, should the worker fall behind, and goes back to the default if the worker fails.
 *
 * Nothing to do for an in-memory database: undefined. {@link connect} starts it for a serving
 * process (`backgroundCheckpoints`) and stops it when the database is closed.
 */
export function checkpointInBackground(
  sqlite: SqliteDatabase.Database,
  onError: (error: Error) => void,
): Checkpointer | undefined {
  if (sqlite.memory) return undefined;
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { driver: createRequire(import.meta.url).resolve('better-sqlite3'), path: sqlite.name, intervalMs: INTERVAL_MS },
  });
  // It never keeps a process alive by itself; stop() is how it ends.
  worker.unref();
  sqlite.pragma(`wal_autocheckpoint = ${BACKSTOP_THRESHOLD_PAGES}`);
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.once('error', (error) => {
    if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${DEFAULT_THRESHOLD_PAGES}`);
    onError(error);
  });
  return {
    async stop() {
      worker.postMessage('stop');
      await exited;
      if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${DEFAULT_THRESHOLD_PAGES}`);
    },
  };
}
