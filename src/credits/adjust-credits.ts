import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { applyCredits } from './ledger.js';

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
 * optional sign, then held to {@link adjustCredits}'s rule for the amount.
 */
export function parseAdjustment(text: string): number {
  if (!/^[+-]?[0-9]+$/.test(text.trim())) throw notWhole(text);
  return checkAmount(Number(text), text);
}

function notWhole(written: string): AdjustmentError {
  return new AdjustmentError(`N must be a whole number of credits, e.g. 500 or -500 (got "${written}")`);
}

/**
 * The rule for an adjustment's amount: a whole number within the safe integer range, and not 0:
 * zero would change nothing yet add a ledger line that reads as a correction, and a 0 typed where
 * a number was meant is better caught than recorded. `written` is the amount as the operator typed it.
 */
function checkAmount(amount: number, written = String(amount)): number {
  if (!Number.isSafeInteger(amount)) throw notWhole(written);
  if (amount === 0) throw new AdjustmentError('N must not be 0: an adjustment of 0 credits changes nothing');
  return amount;
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
 * (design §2). The amount and the reason are checked here, the one place (a refusal changes
 * nothing); so is the balance: a change that would take it below zero is refused and changes
 * nothing, the check being part of the update itself, so a charge committed in between cannot slip
 * under it. Returns the new balance.
 */
export async function adjustCredits(db: Kysely<Database>, adjustment: Adjustment): Promise<number> {
  const { accountId, at } = adjustment;
  const amount = checkAmount(adjustment.amount);
  const reason = checkReason(adjustment.reason);
  return db.transaction().execute(async (trx) => {
    const balance = await applyCredits(trx, { accountId, amount, kind: 'adjustment', detail: reason, at });
    if (balance !== undefined) return balance;
    const held = await trx.selectFrom('accounts').select('balance').where('account_id', '=', accountId).executeTakeFirst();
    if (held === undefined) throw new AdjustmentError(`no account ${accountId}`);
    throw new AdjustmentError(
      `adjusting by ${amount} would take the balance of ${Number(held.balance)} below zero; nothing changed`,
    );
  });
}
