import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import { appendLedger } from './ledger.js';

/** What a billed call asks of the ledger. */
export interface ChargeRequest {
  accountId: string;
  keyId: string | null;
  endpoint: string;
  /** Price when nothing was bought before (or the only price, for calls that buy nothing). */
  price: number;
  /**
   * For a revenue 200: the company-period being bought and the price if the account bought it
   * already. Keyed by the resolved period, so -1 and its year are the same purchase.
   */
  purchase?: { companyId: string; period: number; repeatPrice: number };
  /** For a 204 or other call that records which company-period it was about, without buying it. */
  subject?: { companyId: string; period: number };
  requestId: string;
  at: string;
  /** Also stamp the key's last use, in the same transaction (the caller throttles how often). */
  touchKey?: boolean;
}

export type ChargeResult = { ok: true; cost: number; balance: number } | { ok: false; cost: number; balance: number };

class Insufficient extends Error {
  constructor(readonly cost: number) {
    super('insufficient credits');
  }
}

/**
 * Charges one call in one transaction: the purchase record (if any), the balance guarded by
 * `balance >= cost`, and the ledger entry commit together or not at all.
 *
 * The purchase insert goes first on purpose: it takes the write lock (SQLite) or the row lock
 * (PostgreSQL), so concurrent first accesses to one company-period serialize on it and exactly
 * one of them pays the first-access price.
 */
export async function charge(db: Kysely<Database>, req: ChargeRequest): Promise<ChargeResult> {
  try {
    return await db.transaction().execute(async (trx) => {
      let cost = req.price;
      if (req.purchase !== undefined) {
        const inserted = await trx
          .insertInto('purchases')
          .values({
            account_id: req.accountId,
            company_id: req.purchase.companyId,
            reporting_period: req.purchase.period,
            created_at: req.at,
          })
          .onConflict((oc) => oc.columns(['account_id', 'company_id', 'reporting_period']).doNothing())
          .returning('account_id')
          .executeTakeFirst();
        if (inserted === undefined) cost = req.purchase.repeatPrice;
      }
      const row = await trx
        .updateTable('accounts')
        .set({ balance: sql`balance - ${cost}` })
        .where('account_id', '=', req.accountId)
        .where('balance', '>=', cost)
        .returning('balance')
        .executeTakeFirst();
      if (row === undefined) throw new Insufficient(cost);
      const balance = Number(row.balance);
      const subject = req.purchase ?? req.subject;
      await appendLedger(trx, {
        accountId: req.accountId,
        amount: -cost,
        balanceAfter: balance,
        kind: 'charge',
        endpoint: req.endpoint,
        keyId: req.keyId,
        companyId: subject?.companyId ?? null,
        reportingPeriod: subject?.period ?? null,
        requestId: req.requestId,
        at: req.at,
      });
      if (req.touchKey === true && req.keyId !== null) {
        await trx.updateTable('api_keys').set({ last_used_at: req.at }).where('key_id', '=', req.keyId).execute();
      }
      return { ok: true as const, cost, balance };
    });
  } catch (error) {
    if (!(error instanceof Insufficient)) throw error;
    return { ok: false, cost: error.cost, balance: await balanceOf(db, req.accountId) };
  }
}

export async function balanceOf(db: Kysely<Database>, accountId: string): Promise<number> {
  const row = await db.selectFrom('accounts').select('balance').where('account_id', '=', accountId).executeTakeFirstOrThrow();
  return Number(row.balance);
}

/** Whether the account already bought this company-period (for the price a refused call would have had). */
export async function hasPurchased(db: Kysely<Database>, accountId: string, companyId: string, period: number): Promise<boolean> {
  const row = await db
    .selectFrom('purchases')
    .select('account_id')
    .where('account_id', '=', accountId)
    .where('company_id', '=', companyId)
    .where('reporting_period', '=', period)
    .executeTakeFirst();
  return row !== undefined;
}
