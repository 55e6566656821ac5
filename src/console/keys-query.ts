import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

export type KeyStatus = 'active' | 'revoked' | 'expired';

/** What the console shows of a key: never the key itself, which is not stored. */
export interface KeyListing {
  keyId: string;
  name: string;
  displayPrefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
  status: KeyStatus;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function statusOf(revokedAt: string | null, expiresAt: string | null, now: Date): KeyStatus {
  if (revokedAt !== null) return 'revoked';
  if (expiresAt !== null && expiresAt <= now.toISOString()) return 'expired';
  return 'active';
}

function query(db: Kysely<Database>, accountId: string) {
  return db
    .selectFrom('api_keys')
    .select(['key_id', 'name', 'display_prefix', 'created_at', 'last_used_at', 'expires_at', 'revoked_at'])
    .where('account_id', '=', accountId);
}

type Row = Awaited<ReturnType<ReturnType<typeof query>['executeTakeFirstOrThrow']>>;

function toListing(r: Row, now: Date): KeyListing {
  return {
    keyId: r.key_id,
    name: r.name,
    displayPrefix: r.display_prefix,
    createdAt: r.created_at,
    lastUsedAt: r.last_used_at,
    expiresAt: r.expires_at,
    revokedAt: r.revoked_at,
    status: statusOf(r.revoked_at, r.expires_at, now),
  };
}

/** The account's keys, newest first. */
export async function listKeys(db: Kysely<Database>, accountId: string, now: Date): Promise<KeyListing[]> {
  const rows = await query(db, accountId).orderBy('created_at', 'desc').orderBy('key_id').execute();
  return rows.map((r) => toListing(r, now));
}

/** One key of the account; undefined for a key of another account, so nobody learns it exists. */
export async function findOwnKey(
  db: Kysely<Database>,
  accountId: string,
  keyId: string,
  now: Date,
): Promise<KeyListing | undefined> {
  if (!UUID_RE.test(keyId)) return undefined;
  const row = await query(db, accountId).where('key_id', '=', keyId).executeTakeFirst();
  return row === undefined ? undefined : toListing(row, now);
}
