import type { Db } from '../db/connect.js';
import { fixedStatement, fixedTransaction } from '../db/fixed-transaction.js';
import { type BatchOutcome, chargeBatch } from './charge-batch.js';
import { chargeParams } from './charge-function.js';
import type { ChargeRequest, ChargeResult } from './charge-request.js';

/** The call of `charge_all`, migration 006-charge-all: `charge_batch`'s arguments, undone unless every call was charged. */
const CALL =
  'select outcome, cost, balance from charge_all(?::text[], ?::text[], ?::text[], ?::bigint[], ?::text[], ?::text[], ' +
  '?::integer[], ?::bigint[], ?::text[], ?::integer[], ?::text[], ?::text[], ?::boolean[], ?::integer[], ?::integer[], ?::text[], ?::text[])';

const CHARGED = 1;

/** Thrown inside the SQLite transaction to roll it back, carrying what was priced. */
class Refused extends Error {
  constructor(readonly outcomes: BatchOutcome[]) {
    super('not every charge of the call was made');
  }
}

/**
 * What an all-or-nothing charge tells its call: the sum of its parts' prices (what it cost, or
 * would have cost) and the balance after it (before it, when refused).
 */
function summary(requests: readonly ChargeRequest[], outcomes: readonly BatchOutcome[]): ChargeResult {
  let cost = 0;
  let ok = true;
  outcomes.forEach((o, i) => {
    if (o === 'retry') {
      // Priced on a purchase a refused part dropped: it would have been a repeat.
      const req = requests[i] as ChargeRequest;
      cost += req.purchase?.repeatPrice ?? req.price;
      ok = false;
      return;
    }
    cost += o.cost;
    if (!o.ok) ok = false;
  });
  const first = outcomes[0];
  const last = outcomes[outcomes.length - 1];
  if (ok) return { ok, cost, balance: typeof last === 'object' ? last.balance : 0 };
  // The first part is never a retry (it comes first for its purchase); refused, its balance is the opening one.
  const opening = typeof first !== 'object' ? 0 : first.ok ? first.balance + first.cost : first.balance;
  return { ok, cost, balance: opening };
}

/**
 * Charges one call that buys several company-periods (a history, a batch) as one transaction, all
 * or nothing: each part is priced exactly as a call of its own would be, in order ({@link
 * chargeBatch}: a first access 25, a purchase made before or earlier in the same call 1, a 204 its
 * price), and if the balance does not cover every part, nothing is charged, bought or written.
 * Every part has its own ledger line (the call's request id, endpoint and company-period), so the
 * ledger sums to the balance whatever runs beside it; concurrent calls buying the same
 * company-period meet on its purchase row, and one of them pays the first access.
 *
 * Calls are all of one account. Not group-committed with the single calls (a call with many parts
 * is rare and carries its own transaction's cost): on PostgreSQL one statement (`charge_all`), on
 * SQLite one synchronous transaction.
 */
export function chargeAll(db: Db): (requests: readonly ChargeRequest[]) => Promise<ChargeResult> {
  if (db.dialect === 'postgres') {
    const call = fixedStatement(db, 'charge_all', CALL);
    return async (requests) => {
      const rows = await call(chargeParams(requests));
      if (rows.length !== requests.length)
        throw new Error(`charge_all answered ${rows.length} outcomes for ${requests.length} parts`);
      const outcomes = rows.map(
        ({ outcome, cost, balance }): BatchOutcome => ({ ok: outcome === CHARGED, cost: Number(cost), balance: Number(balance) }),
      );
      return summary(requests, outcomes);
    };
  }
  const transaction = fixedTransaction(db);
  return async (requests) => {
    try {
      const outcomes = await transaction(function* () {
        const made = yield* chargeBatch(requests);
        if (made.some((o) => o === 'retry' || !o.ok)) throw new Refused(made);
        return made;
      });
      return summary(requests, outcomes);
    } catch (error) {
      if (error instanceof Refused) return summary(requests, error.outcomes);
      throw error;
    }
  };
}
