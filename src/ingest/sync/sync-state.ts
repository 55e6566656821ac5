import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Validators } from './source-fetcher.js';

/** A file a sync fetched and ingested: recorded only once its data is in the database. */
export interface SyncedFile {
  readonly fileKey: string;
  readonly url: string;
  readonly validators: Validators;
  readonly bytes: number;
}

/** The validators kept for a source's files, by file key; a file not in the map was never synced. */
export async function readValidators(
  db: Kysely<Database>,
  source: string,
  fileKeys: readonly string[],
): Promise<Map<string, Validators>> {
  const found = new Map<string, Validators>();
  // Bounded batches: a whole catalog's CIKs in one IN list would pass SQLite's variable limit.
  for (let i = 0; i < fileKeys.length; i += 500) {
    const rows = await db
      .selectFrom('sync_files')
      .select(['file_key', 'etag', 'last_modified'])
      .where('source', '=', source)
      .where('file_key', 'in', fileKeys.slice(i, i + 500))
      .execute();
    for (const r of rows) found.set(r.file_key, { etag: r.etag, lastModified: r.last_modified });
  }
  return found;
}

/** When each of a source's files was last synced (ISO 8601), by file key; a file not in the map never was. */
export async function readFetchedAt(
  db: Kysely<Database>,
  source: string,
  fileKeys: readonly string[],
): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (let i = 0; i < fileKeys.length; i += 500) {
    const rows = await db
      .selectFrom('sync_files')
      .select(['file_key', 'fetched_at'])
      .where('source', '=', source)
      .where('file_key', 'in', fileKeys.slice(i, i + 500))
      .execute();
    for (const r of rows) found.set(r.file_key, r.fetched_at);
  }
  return found;
}

/**
 * Records files as synced, after the transaction that ingested them: a sync killed in between
 * fetches them again next time and ingests them again, which changes nothing (ingesting is
 * idempotent), so no order of failures leaves a file recorded but not ingested.
 */
export async function recordSynced(db: Kysely<Database>, source: string, files: readonly SyncedFile[], now: Date): Promise<void> {
  if (files.length === 0) return;
  const fetchedAt = now.toISOString();
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < files.length; i += 100) {
      await trx
        .insertInto('sync_files')
        .values(
          files.slice(i, i + 100).map((f) => ({
            source,
            file_key: f.fileKey,
            url: f.url,
            etag: f.validators.etag,
            last_modified: f.validators.lastModified,
            bytes: f.bytes,
            fetched_at: fetchedAt,
          })),
        )
        .onConflict((oc) =>
          oc.columns(['source', 'file_key']).doUpdateSet((eb) => ({
            url: eb.ref('excluded.url'),
            etag: eb.ref('excluded.etag'),
            last_modified: eb.ref('excluded.last_modified'),
            bytes: eb.ref('excluded.bytes'),
            fetched_at: eb.ref('excluded.fetched_at'),
          })),
        )
        .execute();
    }
  });
}
