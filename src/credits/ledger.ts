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

/** Adds credits inside the caller's transaction: balance and ledger entry together. */
export async function applyGrant(trx: Transaction<Database>, accountId: string, credits: number, at: string): Promise<number> {
  if (!Number.isSafeInteger(credits) || credits <= 0) throw new RangeError('credits must be a positive integer');
  const row = await trx
    .updateTable('accounts')
    .set({ balance: sql`balance + ${credits}` })
    .where('account_id', '=', accountId)
    .returning('balance')
    .executeTakeFirstOrThrow();
  const balance = Number(row.balance);
  if (!Number.isSafeInteger(balance)) throw new RangeError('balance would exceed the safe integer range');
  await appendLedger(trx, { accountId, amount: credits, balanceAfter: balance, kind: 'grant', at });
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
