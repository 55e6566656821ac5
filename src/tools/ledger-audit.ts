import type { Kysely } from 'kysely';
import { DATASETS } from '../datasets/registry.js';
import type { Database } from '../db/schema.js';
import { FUNDAMENTALS_VIA } from '../http/routes/fundamentals.js';

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
  /** Charged requests (a history's or batch's lines count once). */
  charges: number;
  accounts: number;
  /** Charges for requests whose response never reached the client (bounded by `unanswered`). */
  unseenCharges: number;
  /** Charged requests of several parts (a history, a batch, a statement call). */
  multiPart: number;
  discrepancies: string[];
}

/** Endpoints whose call is charged in several lines: one per company-period, or per statement item. */
const MULTI_PART = new RegExp(`^[a-z0-9-]+/(history|batch|${FUNDAMENTALS_VIA})$`);

/**
 * Compares the ledger with what clients received: every 200/204 that cost something is in the
 * ledger with its cost and balance (the lines of a history, batch or statement call summed); no error response charged anything; no request charged twice;
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
  // A call of several parts (a history, a batch) has one line per company-period, all under its
  // request id: the client saw their sum as its cost and the last line's balance as its balance.
  const charged = new Map<string, { lines: (typeof charges)[number][]; cost: number; balance: number }>();
  for (const c of charges) {
    const id = c.request_id ?? '';
    const entry = charged.get(id) ?? { lines: [], cost: 0, balance: Number.POSITIVE_INFINITY };
    entry.lines.push(c);
    entry.cost += -Number(c.amount);
    entry.balance = Math.min(entry.balance, Number(c.balance_after));
    charged.set(id, entry);
  }
  let unseenCharges = 0;
  for (const [id, { lines, cost, balance }] of charged) {
    if (lines.length > 1 && !lines.every((l) => MULTI_PART.test(l.endpoint ?? '')))
      discrepancies.push(`request ${id} charged twice`);
    const seen = observed.byRequestId.get(id);
    if (seen === undefined) {
      unseenCharges += 1;
      continue;
    }
    if (seen.status !== 200 && seen.status !== 204) discrepancies.push(`request ${id} answered ${seen.status} but charged`);
    else if (seen.cost !== cost || seen.balance !== balance) {
      discrepancies.push(`request ${id}: client saw cost ${seen.cost} balance ${seen.balance}, ledger has ${cost} / ${balance}`);
    }
  }
  // A dataset's ledger entries name it as their endpoint; its first-access price marks a purchase.
  const firstPrice = new Map(DATASETS.map((d) => [d.name, d.prices.firstAccess]));
  const firsts = new Set<string>();
  for (const c of charges) {
    // A dataset's history and batch lines (`revenues/history`) buy in that dataset too.
    const dataset = (c.endpoint ?? '').split('/')[0] ?? '';
    if (firstPrice.get(dataset) !== -Number(c.amount)) continue;
    const key = `${c.account_id}/${dataset}/${c.company_id}/${c.reporting_period}`;
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
  const multiPart = [...charged.values()].filter((c) => MULTI_PART.test(c.lines[0]?.endpoint ?? '')).length;
  return { charges: charged.size, accounts: accounts.length, unseenCharges, multiPart, discrepancies };
}
