import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { isToken, newToken } from './csrf.js';

/** How long a console session lasts from sign-in; it is not extended by use. */
export const SESSION_TTL_SECONDS = 12 * 60 * 60;

/** A signed-in visitor of the console. */
export interface ConsoleSession {
  /** SHA-256 of the cookie's token: what the database stores, never the token itself. */
  readonly sessionId: string;
  readonly accountId: string;
  readonly email: string;
  /** This session's CSRF token, put in a hidden field of every form and checked on every POST. */
  readonly csrf: string;
}

/** The stored id of a session token: a database leak then yields no usable cookie. */
export function sessionIdOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Starts a session; returns the token for the cookie. Expired sessions are swept on the way. */
export async function createSession(db: Kysely<Database>, accountId: string, now: Date): Promise<{ token: string }> {
  const token = newToken();
  await db.deleteFrom('console_sessions').where('expires_at', '<=', now.toISOString()).execute();
  await db
    .insertInto('console_sessions')
    .values({
      session_id: sessionIdOf(token),
      account_id: accountId,
      csrf_token: newToken(),
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + SESSION_TTL_SECONDS * 1000).toISOString(),
    })
    .execute();
  return { token };
}

/** The live session of a cookie token, or undefined (unknown, malformed or expired). */
export async function findSession(
  db: Kysely<Database>,
  token: string | undefined,
  now: Date,
): Promise<ConsoleSession | undefined> {
  if (!isToken(token)) return undefined;
  const row = await db
    .selectFrom('console_sessions as s')
    .innerJoin('accounts as a', 'a.account_id', 's.account_id')
    .select(['s.session_id', 's.account_id', 's.csrf_token', 'a.email'])
    .where('s.session_id', '=', sessionIdOf(token))
    .where('s.expires_at', '>', now.toISOString())
    .executeTakeFirst();
  return row === undefined
    ? undefined
    : { sessionId: row.session_id, accountId: row.account_id, email: row.email, csrf: row.csrf_token };
}

export async function deleteSession(db: Kysely<Database>, sessionId: string): Promise<void> {
  await db.deleteFrom('console_sessions').where('session_id', '=', sessionId).execute();
}

/** Ends every other session of the account (after a password change). */
export async function deleteOtherSessions(db: Kysely<Database>, accountId: string, keep: string): Promise<void> {
  await db.deleteFrom('console_sessions').where('account_id', '=', accountId).where('session_id', '<>', keep).execute();
}
