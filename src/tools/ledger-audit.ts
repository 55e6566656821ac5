import type { Kysely } from 'kysely';
import { DATASETS } from '../datasets/registry.js';
import type { Database } from '../db/schema.js';

/** What a client saw of one request: its status and credit headers, or nothing (the connection broke). */
export interface Observed {
  status: number;
  cost: number | null;
  balance: number | null;
}

/**
 * What the clients of a run saw, by X-Request-Id. `unanswered` counts requests whose connection
 * broke before a response: the server may have charged them (a response could have been on its
 * way), and their ids are unknown to the client, so such charges are told apart by not matching
 * any id the clients saw.
 */
export interface Observations {
  byRequestId: Map<string, Observed>;
  unanswered: number;
}

export interface AuditReport {
  charges: number;
  accounts: number;
  /** Charges for requests whose response never reached the client (bounded by `unanswered`). */
  unseenCharges: number;
  discrepancies: string[];
}

/**
 * Compares the ledger with what clients received: every 200/204 that cost something is in the
 * ledger with its cost and balance; no error response charged anything; no request charged twice;
 * a charge no client saw is possible only for a request left unanswered; no balance is negative;
 * every ledger sums to its balance; no company-period was bought twice by one account.
 */
export async function auditLedger(db: Kysely<Database>, observed: Observations): Promise<AuditReport> {
  const discrepancies: string[] = [];
  const charges = await db
    .selectFrom('ledger')
    .select(['account_id', 'amount', 'balance_after', 'request_id', 'endpoint', 'company_id', 'reporting_period'])
    .where('kind', '=', 'charge')
    .execute();
  const charged = new Map<string, (typeof charges)[number]>();
  let unseenCharges = 0;
  for (const c of charges) {
    const id = c.request_id ?? '';
    if (charged.has(id)) discrepancies.push(`request ${id} charged twice`);
    charged.set(id, c);
    const seen = observed.byRequestId.get(id);
    if (seen === undefined) {
      unseenCharges += 1;
      continue;
    }
    if (seen.status !== 200 && seen.status !== 204) discrepancies.push(`request ${id} answered ${seen.status} but charged`);
    else if (seen.cost !== -Number(c.amount) || seen.balance !== Number(c.balance_after)) {
      discrepancies.push(
        `request ${id}: client saw cost ${seen.cost} balance ${seen.balance}, ledger has ${-Number(c.amount)} / ${c.balance_after}`,
      );
    }
  }
  if (unseenCharges > observed.unanswered) {
    discrepancies.push(`${unseenCharges} charges match no response, but only ${observed.unanswered} requests went unanswered`);
  }
  for (const [id, seen] of observed.byRequestId) {
    if ((seen.status === 200 || seen.status === 204) && (seen.cost ?? 0) > 0 && !charged.has(id)) {
      discrepancies.push(`request ${id} answered ${seen.status} with cost ${seen.cost} but not in the ledger`);
    }
  }
  // A dataset's ledger entries name it as their endpoint; its first-access price marks a purchase.
  const firstPrice = new Map(DATASETS.map((d) => [d.name, d.prices.firstAccess]));
  const firsts = new Set<string>();
  for (const c of charges) {
    if (firstPrice.get(c.endpoint ?? '') !== -Number(c.amount)) continue;
    const key = `${c.account_id}/${c.endpoint}/${c.company_id}/${c.reporting_period}`;
    if (firsts.has(key)) discrepancies.push(`first access ${key} charged twice`);
    firsts.add(key);
  }
  const accounts = await db.selectFrom('accounts').select(['account_id', 'balance']).execute();
  const sums = await db
    .selectFrom('ledger')
    .select((eb) => ['account_id', eb.fn.sum<number | string>('amount').as('total')])
    .groupBy('account_id')
    .execute();
  const sumOf = new Map(sums.map((s) => [s.account_id, Number(s.total)]));
  for (const a of accounts) {
    const balance = Number(a.balance);
    if (balance < 0) discrepancies.push(`account ${a.account_id} has a negative balance ${balance}`);
    if ((sumOf.get(a.account_id) ?? 0) !== balance) {
      discrepancies.push(`account ${a.account_id}: ledger sums to ${sumOf.get(a.account_id) ?? 0}, balance is ${balance}`);
    }
  }
  return { charges: charges.length, accounts: accounts.length, unseenCharges, discrepancies };
}
