import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import type { DatabaseConfig } from '../config.js';

/** Why a backup was refused: one line for the operator. */
export class BackupError extends Error {}

/**
 * Copies a live SQLite database with SQLite's online backup API: the copy is one consistent
 * snapshot (every committed charge with its ledger entry, none half-written) while the server
 * keeps answering and billing. PostgreSQL has its own tools, and a second way would be worse.
 */
export async function backupDatabase(database: DatabaseConfig, file: string): Promise<{ backup: string; bytes: number }> {
  if (database.kind !== 'sqlite') {
    throw new BackupError(
      'backup copies a SQLite database; for PostgreSQL use pg_dump (docs/deployment.md, "Back up and restore")',
    );
  }
  if (!existsSync(database.path)) throw new BackupError(`no database at ${database.path}`);
  // Never overwrite: the target may be the last good backup, or the live database itself.
  if (existsSync(file)) throw new BackupError(`${file} exists; name a new file`);
  if (resolve(file) === resolve(database.path)) throw new BackupError('the backup must be another file than the database');
  const source = new SqliteDatabase(database.path, { fileMustExist: true });
  try {
    // Another process (the server) may hold the write lock while a page set is copied.
    source.pragma('busy_timeout = 10000');
    await source.backup(file);
  } finally {
    source.close();
  }
  return { backup: file, bytes: statSync(file).size };
}
