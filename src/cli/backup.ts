import { closeSync, existsSync, lstatSync, openSync, rmSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import type { DatabaseConfig } from '../config.js';

function lstatOrUndefined(path: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

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
  if (resolve(file) === resolve(database.path)) throw new BackupError('the backup must be another file than the database');
  // Never overwrite: the target may be the last good backup, or the live database itself. Nor
  // write through a symlink, dangling or not, to wherever it points: the new file is created
  // here, exclusively (O_EXCL does not follow a final symlink), and the copy goes into it.
  if (lstatOrUndefined(file) !== undefined) throw new BackupError(`${file} exists; name a new file`);
  try {
    closeSync(openSync(file, 'wx'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new BackupError(code === 'EEXIST' ? `${file} exists; name a new file` : `cannot create ${file} (${code ?? 'error'})`);
  }
  const source = new SqliteDatabase(database.path, { fileMustExist: true });
  try {
    // Another process (the server) may hold the write lock while a page set is copied.
    source.pragma('busy_timeout = 10000');
    await source.backup(file);
  } catch (error) {
    rmSync(file, { force: true });
    throw error;
  } finally {
    source.close();
  }
  return { backup: file, bytes: statSync(file).size };
}
