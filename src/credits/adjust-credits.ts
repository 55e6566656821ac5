import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import { appendLedger } from './ledger.js';

/** An adjustment refused: the message says why, and nothing was changed. */
export class AdjustmentError extends Error {}

/** The longest reason kept on a ledger line. */
export const MAX_REASON_LENGTH = 500;

export interface Adjustment {
  accountId: string;
  /** Credits to add (positive) or take (negative); never 0. */
  amount: number;
  /** Why: kept on the ledger line, so the correction explains itself later. */
  reason: string;
  at: string;
}

/**
 * The credits of an operator's adjustment, parsed from the command line: a whole number with an
 * optional sign. Zero is refused: it would change nothing yet add a ledger line that reads as a
 * correction, and a 0 typed where a number was meant is better caught than recorded.
 */
export function parseAdjustment(text: string): number {
  const value = Number(text);
  if (!/^[+-]?[0-9]+$/.test(text.trim()) || !Number.isSafeInteger(value)) {
    throw new AdjustmentError(`N must be a whole number of credits, e.g. 500 or -500 (got "${text}")`);
  }
  if (value === 0) throw new AdjustmentError('N must not be 0: an adjustment of 0 credits changes nothing');
  return value;
}

/** The reason of an adjustment, trimmed; refused when empty or longer than {@link MAX_REASON_LENGTH}. */
export function checkReason(reason: string): string {
  const trimmed = reason.trim();
  if (trimmed === '') throw new AdjustmentError('--reason must say why the balance is adjusted');
  if (trimmed.length > MAX_REASON_LENGTH) {
    throw new AdjustmentError(`--reason must be at most ${MAX_REASON_LENGTH} characters (got ${trimmed.length})`);
  }
  return trimmed;
}

/**
 * Adds `amount` credits (negative: takes them) to an account in one transaction: the balance and
 * one `adjustment` ledger line carrying the reason, so the ledger still sums to the balance
 * (design §2). A change that would take the balance below zero is refused and changes nothing;
 * the check is part of the update itself, so a charge committed in between cannot slip under it.
 * Returns the new balance.
 */
export async function adjustCredits(db: Kysely<Database>, adjustment: Adjustment): Promise<number> {
  const { accountId, amount, at } = adjustment;
  if (!Number.isSafeInteger(amount) || amount === 0) throw new AdjustmentError('an adjustment is a whole number other than 0');
  const reason = checkReason(adjustment.reason);
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('accounts')
      .set({ balance: sql`balance + ${amount}` })
      .where('account_id', '=', accountId)
      .where(sql`balance + ${amount}`, '>=', 0)
      .returning('balance')
      .executeTakeFirst();
    if (row === undefined) {
      const held = await trx.selectFrom('accounts').select('balance').where('account_id', '=', accountId).executeTakeFirst();
      if (held === undefined) throw new AdjustmentError(`no account ${accountId}`);
      throw new AdjustmentError(
        `adjusting by ${amount} would take the balance of ${Number(held.balance)} below zero; nothing changed`,
      );
    }
    const balance = Number(row.balance);
    if (!Number.isSafeInteger(balance)) throw new AdjustmentError('the balance would exceed the safe integer range');
    await appendLedger(trx, { accountId, amount, balanceAfter: balance, kind: 'adjustment', detail: reason, at });
    return balance;
  });
}
