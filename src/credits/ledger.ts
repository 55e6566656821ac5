import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database, LedgerKind } from '../db/schema.js';

type Executor = Kysely<Database> | Transaction<Database>;

export interface LedgerEntryInput {
  accountId: string;
  amount: number;
  balanceAfter: number;
  kind: LedgerKind;
  endpoint?: string | null;
  keyId?: string | null;
  companyId?: string | null;
  reportingPeriod?: number | null;
  requestId?: string | null;
  /** A search's query, or an adjustment's reason. */
  detail?: string | null;
  at: string;
}

/** Appends one ledger entry; the caller changes the balance in the same transaction. */
export async function appendLedger(db: Executor, e: LedgerEntryInput): Promise<void> {
  await db
    .insertInto('ledger')
    .values({
      account_id: e.accountId,
      amount: e.amount,
      balance_after: e.balanceAfter,
      kind: e.kind,
      endpoint: e.endpoint ?? null,
      key_id: e.keyId ?? null,
      company_id: e.companyId ?? null,
      reporting_period: e.reportingPeriod ?? null,
      request_id: e.requestId ?? null,
      created_at: e.at,
      detail: e.detail ?? null,
    })
    .execute();
}

/** A change of an account's credits that is not a charge: a grant, or an operator's adjustment. */
export interface CreditChange {
  accountId: string;
  /** Credits to add (positive) or take (negative). */
  amount: number;
  kind: 'grant' | 'adjustment';
  /** An adjustment's reason; null (or absent) for a grant. */
  detail?: string | null;
  at: string;
}

/**
 * Adds `amount` credits (negative: takes them) inside the caller's transaction: the balance and
 * its ledger entry together, so the ledger still sums to the balance (design §2). The balance never
 * goes below zero: the check is part of the update itself, so a charge committed in between cannot
 * slip under it (a grant, being positive, always passes it). Returns the new balance, or undefined
 * when nothing changed: no such account, or a balance that would go below zero.
 */
export async function applyCredits(trx: Transaction<Database>, change: CreditChange): Promise<number | undefined> {
  const { accountId, amount, kind, detail, at } = change;
  const row = await trx
    .updateTable('accounts')
    .set({ balance: sql`balance + ${amount}` })
    .where('account_id', '=', accountId)
    .where(sql`balance + ${amount}`, '>=', 0)
    .returning('balance')
    .executeTakeFirst();
  if (row === undefined) return undefined;
  const balance = Number(row.balance);
  if (!Number.isSafeInteger(balance)) throw new RangeError('balance would exceed the safe integer range');
  await appendLedger(trx, { accountId, amount, balanceAfter: balance, kind, detail, at });
  return balance;
}

/** Adds credits inside the caller's transaction: balance and ledger entry together. */
export async function applyGrant(trx: Transaction<Database>, accountId: string, credits: number, at: string): Promise<number> {
  if (!Number.isSafeInteger(credits) || credits <= 0) throw new RangeError('credits must be a positive integer');
  const balance = await applyCredits(trx, { accountId, amount: credits, kind: 'grant', at });
  if (balance === undefined) throw new RangeError(`no account ${accountId}`);
  return balance;
}

/** Adds credits to an account in one transaction. Returns the new balance. */
export function grantCredits(db: Kysely<Database>, accountId: string, credits: number, at: string): Promise<number> {
  return db.transaction().execute((trx) => applyGrant(trx, accountId, credits, at));
}

/** Sum of an account's ledger entries; equals its balance at every commit. */
export async function ledgerSum(db: Executor, accountId: string): Promise<number> {
  const row = await db
    .selectFrom('ledger')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), sql<number>`0`).as('total'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}
