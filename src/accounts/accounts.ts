import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { applyGrant } from '../credits/ledger.js';
import type { Database, Subscription } from '../db/schema.js';
import { bumpVersion } from '../db/versions.js';
import { hashPassword } from './passwords.js';

export interface AccountSummary {
  account_id: string;
  email: string;
  balance: number;
  /** Kept for scripts written before there were several datasets: `revenues` when that one is held. */
  subscription: Subscription;
  /** Every subscription held, in the order of the subscriptions offered. */
  subscriptions: string[];
}

/** A request the operator got wrong: the message is shown as it is. */
export class AccountError extends Error {}

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/**
 * Printable ASCII only: emails are compared with SQL's lower(), which SQLite applies to ASCII
 * letters alone; an international domain is written in its xn-- form.
 */
const ASCII_RE = /^[\x21-\x7e]+$/;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface CreateAccountInput {
  email: string;
  credits?: number;
  password?: string;
  /** The subscriptions to hold; all those offered when not given, none for an empty list. */
  subscriptions?: readonly string[];
  now: Date;
}

/**
 * The subscriptions there are, in the order answers list them: the composition root derives
 * them from its datasets and hands them in (accounts know no dataset).
 */
export type OfferedSubscriptions = readonly string[];

/** Checks a list of subscriptions and puts it in the one order every answer uses. */
export function checkSubscriptions(given: readonly string[], offered: OfferedSubscriptions): string[] {
  const unknown = given.filter((s) => !offered.includes(s));
  if (unknown.length > 0) {
    throw new AccountError(`unknown subscription ${unknown.join(', ')}: the subscriptions are ${offered.join(', ')}`);
  }
  return offered.filter((s) => given.includes(s));
}

const legacySubscription = (subscriptions: readonly string[]): Subscription =>
  subscriptions.includes('revenues') ? 'revenues' : 'none';

/** Creates an account; its opening credits are a ledger grant like any other. */
export async function createAccount(
  db: Kysely<Database>,
  input: CreateAccountInput,
  offered: OfferedSubscriptions,
): Promise<AccountSummary> {
  // Kept as given; compared without regard to case (a unique index on lower(email) enforces it).
  const email = input.email.trim();
  if (!EMAIL_RE.test(email)) throw new AccountError(`"${input.email}" is not an email address`);
  if (!ASCII_RE.test(email)) {
    throw new AccountError(
      `"${input.email}": an email address of ASCII characters is needed (an international domain in its xn-- form)`,
    );
  }
  const credits = input.credits ?? 0;
  if (!Number.isSafeInteger(credits) || credits < 0) throw new AccountError('--credits must be a whole number ≥ 0');
  if (input.password !== undefined && input.password.length < 8) {
    throw new AccountError('--password must be at least 8 characters');
  }
  if ((await findAccount(db, email, offered)) !== undefined)
    throw new AccountError(`an account with email ${email} exists already`);
  const accountId = randomUUID();
  const at = input.now.toISOString();
  const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
  const subscriptions = checkSubscriptions(input.subscriptions ?? offered, offered);
  const subscription = legacySubscription(subscriptions);
  try {
    return await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('accounts')
        .values({
          account_id: accountId,
          email,
          balance: 0,
          subscription,
          password_hash: passwordHash,
          created_at: at,
        })
        .execute();
      if (subscriptions.length > 0) {
        await trx
          .insertInto('account_subscriptions')
          .values(subscriptions.map((s) => ({ account_id: accountId, subscription: s })))
          .execute();
      }
      const balance = credits > 0 ? await applyGrant(trx, accountId, credits, at) : 0;
      return { account_id: accountId, email, balance, subscription, subscriptions };
    });
  } catch (error) {
    // A concurrent create of the same email loses on the unique constraint.
    if (await findAccount(db, email, offered)) throw new AccountError(`an account with email ${email} exists already`);
    throw error;
  }
}

/** Finds an account by email or account id. */
export async function findAccount(
  db: Kysely<Database>,
  emailOrId: string,
  offered: OfferedSubscriptions,
): Promise<AccountSummary | undefined> {
  const query = db.selectFrom('accounts').select(['account_id', 'email', 'balance', 'subscription']);
  const row = UUID_RE.test(emailOrId)
    ? await query.where('account_id', '=', emailOrId.toLowerCase()).executeTakeFirst()
    : await query.where(sql`lower(email)`, '=', emailOrId.trim().toLowerCase()).executeTakeFirst();
  if (row === undefined) return undefined;
  const held = await db
    .selectFrom('account_subscriptions')
    .select('subscription')
    .where('account_id', '=', row.account_id)
    .execute();
  return {
    ...row,
    balance: Number(row.balance),
    subscriptions: checkSubscriptions(
      held.map((h) => h.subscription),
      offered,
    ),
  };
}

export async function requireAccount(
  db: Kysely<Database>,
  emailOrId: string,
  offered: OfferedSubscriptions,
): Promise<AccountSummary> {
  const account = await findAccount(db, emailOrId, offered);
  if (account === undefined) throw new AccountError(`no account ${emailOrId}`);
  return account;
}

/** Replaces an account's subscriptions; every instance drops its cached view of the account's keys. */
export async function setSubscriptions(
  db: Kysely<Database>,
  accountId: string,
  given: readonly string[],
  offered: OfferedSubscriptions,
): Promise<void> {
  const subscriptions = checkSubscriptions(given, offered);
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('accounts')
      .set({ subscription: legacySubscription(subscriptions) })
      .where('account_id', '=', accountId)
      .execute();
    await trx.deleteFrom('account_subscriptions').where('account_id', '=', accountId).execute();
    if (subscriptions.length > 0) {
      await trx
        .insertInto('account_subscriptions')
        .values(subscriptions.map((s) => ({ account_id: accountId, subscription: s })))
        .execute();
    }
    await bumpVersion(trx, 'auth');
  });
}
