import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type { Kysely } from 'kysely';
import { DEFAULT_KEYS_PER_ACCOUNT } from '../config.js';
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
  /**
   * Live keys (neither revoked nor expired) the account may hold: `Config.keysPerAccount`; the
   * default when absent, so that no way of making a key goes without a cap.
   */
  maxKeys?: number;
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
 *
 * Refuses with a {@link KeyError}, changing nothing, a name out of bounds and a key beyond the
 * account's cap of live keys (design §11.6): the rate limit counts per account, so more keys buy no
 * more requests, and the cap keeps an account from minting keys without end. The count and the
 * insert run under the account's row lock (the write lock on SQLite), so keys made at the same
 * moment, from the console and the CLI alike, cannot pass the cap together.
 */
export async function createKey(db: Kysely<Database>, input: CreateKeyInput): Promise<CreatedKey> {
  const name = input.name.trim();
  if (name === '' || name.length > 100) throw new KeyError('a key name must be 1 to 100 characters');
  const maxKeys = input.maxKeys ?? DEFAULT_KEYS_PER_ACCOUNT;
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
  await db.transaction().execute(async (trx) => {
    // A no-op write first: it takes the account's row lock before the count is read.
    await trx
      .updateTable('accounts')
      .set((eb) => ({ balance: eb.ref('balance') }))
      .where('account_id', '=', input.accountId)
      .execute();
    const live = await liveKeyCount(trx, input.accountId, input.now);
    if (live >= maxKeys) {
      throw new KeyError(`this account already has ${live} live keys, the most it may hold; revoke one to make another`);
    }
    await trx
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
  });
  return { key_id: keyId, api_key: apiKey };
}

/** The account's keys that still open the API: neither revoked nor expired at `now`. */
export async function liveKeyCount(db: Kysely<Database>, accountId: string, now: Date): Promise<number> {
  const row = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now.toISOString())]))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
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
