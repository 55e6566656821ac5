import type { Db } from '../db/connect.js';
import { fixedStatement } from '../db/fixed-transaction.js';
import type { ChargeRequest } from './charge.js';
import type { BatchOutcome } from './charge-batch.js';

/**
 * The call of `charge_batch`, the server-side function of migration 005-charge-function: the
 * batch's calls as one array per field, in arrival order.
 */
const CALL =
  'select outcome, cost, balance from charge_batch(?::text[], ?::text[], ?::text[], ?::bigint[], ?::text[], ?::text[], ' +
  '?::integer[], ?::bigint[], ?::text[], ?::integer[], ?::text[], ?::text[], ?::boolean[])';

/** `charge_batch`'s outcome codes. */
const CHARGED = 1;
const RETRY = 2;

/**
 * Charges a batch on PostgreSQL in one statement, one round trip, one transaction: the work of
 * {@link chargeBatch} done by the server (see 005-charge-function.ts), with the same outcomes.
 */
export function chargeFunction(
  db: Extract<Db, { dialect: 'postgres' }>,
): (requests: readonly ChargeRequest[]) => Promise<BatchOutcome[]> {
  const call = fixedStatement(db, 'charge_batch', CALL);
  return async (requests) => {
    const n = requests.length;
    const column = <T>(value: (req: ChargeRequest) => T): T[] => {
      const values = new Array<T>(n);
      for (let i = 0; i < n; i++) values[i] = value(requests[i] as ChargeRequest);
      return values;
    };
    // A ledger line names the company-period bought, else the one the call was about.
    const subject = (req: ChargeRequest) => req.purchase ?? req.subject;
    const rows = await call([
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
    ]);
    if (rows.length !== n) throw new Error(`charge_batch answered ${rows.length} outcomes for ${n} calls`);
    return rows.map(({ outcome, cost, balance }) =>
      outcome === RETRY ? 'retry' : { ok: outcome === CHARGED, cost: Number(cost), balance: Number(balance) },
    );
  };
}
