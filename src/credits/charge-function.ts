import type { Db } from '../db/connect.js';
import { fixedStatement, type Rows } from '../db/fixed-transaction.js';
import { type BatchOutcome, batchPlan } from './charge-batch.js';
import type { ChargeRequest } from './charge-request.js';

/**
 * The call of `charge_batch`, the server-side function of migrations 005-charge-function and 009-ledger-detail: the
 * batch's calls as one array per field, in arrival order.
 */
const CALL =
  'select outcome, cost, balance, last_entry from charge_batch(?::text[], ?::text[], ?::text[], ?::bigint[], ?::text[], ?::text[], ' +
  '?::integer[], ?::bigint[], ?::text[], ?::integer[], ?::text[], ?::text[], ?::boolean[], ?::integer[], ?::integer[], ?::text[], ?::text[])';

/**
 * The charges a batch committed, told by their request ids among the ledger entries of its
 * accounts made after `since` (read through the ledger's index by account and entry).
 */
const COMMITTED =
  'select request_id, amount, balance_after from ledger where account_id = any(?::text[]) and entry_id > ? ' +
  "and kind = 'charge' and request_id = any(?::text[])";

/** `charge_batch`'s outcome codes. */
const CHARGED = 1;
const RETRY = 2;

/**
 * The arguments of `charge_batch` (and of `charge_all`, which takes the same): the calls as one
 * array per field, in arrival order, then the batch's plan (1-based).
 */
export function chargeParams(requests: readonly ChargeRequest[]): unknown[] {
  const n = requests.length;
  const column = <T>(value: (req: ChargeRequest) => T): T[] => {
    const values = new Array<T>(n);
    for (let i = 0; i < n; i++) values[i] = value(requests[i] as ChargeRequest);
    return values;
  };
  // A ledger line names the company-period bought, else the one the call was about.
  const subject = (req: ChargeRequest) => req.purchase ?? req.subject;
  const plan = batchPlan(requests);
  return [
    column((r) => r.accountId),
    column((r) => r.keyId),
    column((r) => r.endpoint),
    column((r) => r.price),
    column((r) => r.purchase?.dataset ?? null),
    column((r) => r.purchase?.companyId ?? null),
    column((r) => r.purchase?.period ?? null),
    column((r) => r.purchase?.repeatPrice ?? null),
    column((r) => subject(r)?.companyId ?? null),
    column((r) => subject(r)?.period ?? null),
    column((r) => r.requestId),
    column((r) => r.at),
    column((r) => r.touchKey === true),
    plan.first.map((i) => (i < 0 ? null : i + 1)),
    plan.buys.map((i) => i + 1),
    plan.accounts,
    column((r) => r.detail ?? null),
  ];
}

/**
 * Charges a batch on PostgreSQL in one statement, one round trip, one transaction: the work of
 * {@link chargeBatch} done by the server (see 005-charge-function.ts), with the same outcomes.
 *
 * A batch whose statement fails is whole or absent in the database, but a broken connection does
 * not say which: the commit may have happened just before the answer was lost. So the ledger is
 * asked: the batch's calls whose request ids it holds since the last entry any batch of this
 * instance had seen when this one was sent (entries are numbered by a sequence, always upwards, so
 * a batch sent after an answer makes entries after that answer's) were charged, and are answered from their ledger lines; the others
 * were refused or never charged, and come back as `retry`, to be charged afresh (a refused call
 * leaves no trace, so charging it again is as if it had come later). When none was charged, the
 * error is thrown as is, and the caller charges each call again alone.
 */
export function chargeFunction(
  db: Extract<Db, { dialect: 'postgres' }>,
): (requests: readonly ChargeRequest[]) => Promise<BatchOutcome[]> {
  const call = fixedStatement(db, 'charge_batch', CALL);
  const committed = fixedStatement(db, 'charge_batch_committed', COMMITTED);
  /** The last ledger entry a batch of this instance answered with: later batches make later ones. */
  let lastEntry = 0;
  return async (requests) => {
    const since = lastEntry;
    let rows: Rows;
    try {
      rows = await call(chargeParams(requests));
    } catch (error) {
      const lines = await committed([
        [...new Set(requests.map((r) => r.accountId))],
        since,
        requests.map((r) => r.requestId),
      ]).catch(() => {
        throw error;
      });
      if (lines.length === 0) throw error;
      const charged = new Map(
        lines.map((l) => [l.request_id, { ok: true, cost: 0 - Number(l.amount) || 0, balance: Number(l.balance_after) }]),
      );
      return requests.map((r) => charged.get(r.requestId) ?? 'retry');
    }
    if (rows.length !== requests.length)
      throw new Error(`charge_batch answered ${rows.length} outcomes for ${requests.length} calls`);
    const last = Number(rows[0]?.last_entry ?? 0);
    if (last > lastEntry) lastEntry = last;
    return rows.map(({ outcome, cost, balance }) =>
      outcome === RETRY ? 'retry' : { ok: outcome === CHARGED, cost: Number(cost), balance: Number(balance) },
    );
  };
}
