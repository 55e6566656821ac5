import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { bumpVersion } from '../db/versions.js';

/** The only algorithm keys are signed and accepted with. */
export const KEY_ALGORITHM = 'HS256';

export interface CreatedKey {
  key_id: string;
  api_key: string;
}

export interface CreateKeyInput {
  accountId: string;
  name: string;
  secret: string;
  now: Date;
  /** Seconds until the key expires; absent for a key that lasts until revoked. */
  expiresInSeconds?: number;
}

export class KeyError extends Error {}

/**
 * The claim that tells a live key from the public test token at a glance when its payload is
 * decoded (the test token's says `"sub":"test-mode","mock":true`).
 */
export const LIVE_KEY_CLAIMS = { mode: 'live' } as const;

/**
 * Issues an API key: an HS256 JWT with `sub` = account, `jti` = key id, `mode` = live. Only the id, a short
 * display prefix and metadata are stored; the key itself is returned once and never again.
 */
export async function createKey(db: Kysely<Database>, input: CreateKeyInput): Promise<CreatedKey> {
  const name = input.name.trim();
  if (name === '' || name.length > 100) throw new KeyError('a key name must be 1 to 100 characters');
  const keyId = randomUUID();
  const iat = Math.floor(input.now.getTime() / 1000);
  const jwt = new SignJWT({ ...LIVE_KEY_CLAIMS })
    .setProtectedHeader({ alg: KEY_ALGORITHM, typ: 'JWT' })
    .setSubject(input.accountId)
    .setJti(keyId)
    .setIssuedAt(iat);
  const exp = input.expiresInSeconds === undefined ? undefined : iat + input.expiresInSeconds;
  if (exp !== undefined) jwt.setExpirationTime(exp);
  const apiKey = await jwt.sign(new TextEncoder().encode(input.secret));
  const signature = apiKey.split('.')[2] ?? '';
  await db
    .insertInto('api_keys')
    .values({
      key_id: keyId,
      account_id: input.accountId,
      name,
      display_prefix: signature.slice(0, 8),
      created_at: input.now.toISOString(),
      expires_at: exp === undefined ? null : new Date(exp * 1000).toISOString(),
      last_used_at: null,
      revoked_at: null,
    })
    .execute();
  return { key_id: keyId, api_key: apiKey };
}

/**
 * Revokes a key (optionally only if it belongs to `accountId`). Returns false when there is no
 * such key. Bumps the auth version so every instance stops honouring it within one sync interval.
 */
export async function revokeKey(db: Kysely<Database>, keyId: string, now: Date, accountId?: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    let query = trx
      .updateTable('api_keys')
      .set({ revoked_at: now.toISOString() })
      .where('key_id', '=', keyId)
      .where('revoked_at', 'is', null);
    if (accountId !== undefined) query = query.where('account_id', '=', accountId);
    const result = await query.executeTakeFirst();
    let known = Number(result.numUpdatedRows) > 0;
    if (!known) {
      let exists = trx.selectFrom('api_keys').select('key_id').where('key_id', '=', keyId);
      if (accountId !== undefined) exists = exists.where('account_id', '=', accountId);
      known = (await exists.executeTakeFirst()) !== undefined;
    }
    await bumpVersion(trx, 'auth');
    return known;
  });
}
