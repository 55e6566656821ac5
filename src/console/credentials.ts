import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { hashPassword, verifyPassword } from '../accounts/passwords.js';
import type { Database } from '../db/schema.js';

/** As `bin/corpdata accounts create --password` requires. */
export const MIN_PASSWORD_LENGTH = 8;
/** scrypt hashes any length, but a megabyte "password" is only a way to burn CPU. */
export const MAX_PASSWORD_LENGTH = 1024;

/**
 * Checks an email and password. Unknown emails and accounts without a password are checked
 * against a throwaway hash all the same, so the answer takes as long and says as little.
 */
export class Credentials {
  #dummy: Promise<string> | undefined;

  constructor(private readonly db: Kysely<Database>) {}

  /** The account id when the password is right; undefined for any failure, whatever its cause. */
  async check(email: string, password: string): Promise<string | undefined> {
    if (password.length > MAX_PASSWORD_LENGTH) return undefined;
    const row = await this.db
      .selectFrom('accounts')
      .select(['account_id', 'password_hash'])
      .where(sql`lower(email)`, '=', email.trim().toLowerCase())
      .executeTakeFirst();
    const stored = row?.password_hash ?? null;
    if (row === undefined || stored === null) {
      await verifyPassword(password, await this.#dummyHash());
      return undefined;
    }
    return (await verifyPassword(password, stored)) ? row.account_id : undefined;
  }

  /** Checks the account's current password (the password form asks for it). */
  async checkAccount(accountId: string, password: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('accounts')
      .select('password_hash')
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    const stored = row?.password_hash ?? null;
    if (stored === null || password.length > MAX_PASSWORD_LENGTH) {
      await verifyPassword(password.slice(0, MAX_PASSWORD_LENGTH), await this.#dummyHash());
      return false;
    }
    return verifyPassword(password, stored);
  }

  async setPassword(accountId: string, password: string): Promise<void> {
    const hash = await hashPassword(password);
    await this.db.updateTable('accounts').set({ password_hash: hash }).where('account_id', '=', accountId).execute();
  }

  #dummyHash(): Promise<string> {
    this.#dummy ??= hashPassword(randomBytes(16).toString('base64url'));
    return this.#dummy;
  }
}

/** Why a new password is refused, or undefined when it is acceptable. */
export function passwordProblem(password: string, confirmation: string): string | undefined {
  if (password.length < MIN_PASSWORD_LENGTH) return `The new password must be at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (password.length > MAX_PASSWORD_LENGTH) return `The new password must be at most ${MAX_PASSWORD_LENGTH} characters.`;
  if (password !== confirmation) return 'The two new passwords differ.';
  return undefined;
}
