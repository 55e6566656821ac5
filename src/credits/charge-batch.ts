import type { FixedStep, FixedWork, Rows } from '../db/fixed-transaction.js';
import type { ChargeRequest } from './charge-request.js';

/** The billed path's statements, in portable SQL (run as fixed statements: see fixed-transaction.ts). */
const SQL = {
  insertPurchase:
    'insert into purchases (account_id, dataset, company_id, reporting_period, created_at) values (?, ?, ?, ?, ?) ' +
    'on conflict (account_id, dataset, company_id, reporting_period) do nothing returning account_id',
  dropPurchase: 'delete from purchases where account_id = ? and dataset = ? and company_id = ? and reporting_period = ?',
  // A no-op write: locks the account (a row lock on PostgreSQL, the write lock on SQLite) and reads its balance.
  lockBalance: 'update accounts set balance = balance where account_id = ? returning balance',
  debit: 'update accounts set balance = balance - ? where account_id = ? and balance >= ? returning balance',
  insertLedger:
    'insert into ledger (account_id, amount, balance_after, kind, endpoint, key_id, company_id, reporting_period, ' +
    'request_id, created_at, detail) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  touchKey: 'update api_keys set last_used_at = ? where key_id = ?',
} as const;

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A purchase and the account buying it. */
interface Buying {
  accountId: string;
  purchase: NonNullable<ChargeRequest['purchase']>;
}

/** The global order purchases are locked in: by account, dataset, company, period. */
function purchaseOrder(a: Buying, b: Buying): number {
  return (
    compareText(a.accountId, b.accountId) ||
    compareText(a.purchase.dataset, b.purchase.dataset) ||
    compareText(a.purchase.companyId, b.purchase.companyId) ||
    a.purchase.period - b.purchase.period
  );
}

/** Who comes first in a batch, and the global order its locks are taken in. */
export interface BatchPlan {
  /** For each call, the index of the batch's first call for the same purchase (its own for that one); -1 without a purchase. */
  first: number[];
  /** The first call of each purchase of the batch, in the order purchases are locked. */
  buys: number[];
  /** The batch's accounts, in the order they are locked. */
  accounts: string[];
}

/** Plans a batch: calls for one purchase key share its insert, made by the first of them in arrival order. */
export function batchPlan(requests: readonly ChargeRequest[]): BatchPlan {
  const first = new Array<number>(requests.length).fill(-1);
  // Compared field by field, not as a key string made per call: batches hold few distinct purchases.
  const buys: { index: number; buying: Buying }[] = [];
  requests.forEach(({ accountId, purchase }, index) => {
    if (purchase === undefined) return;
    const buying = { accountId, purchase };
    const earlier = buys.find((b) => purchaseOrder(b.buying, buying) === 0);
    first[index] = earlier?.index ?? index;
    if (earlier === undefined) buys.push({ index, buying });
  });
  return {
    first,
    buys: buys.sort((a, b) => purchaseOrder(a.buying, b.buying)).map((b) => b.index),
    accounts: [...new Set(requests.map((r) => r.accountId))].sort(compareText),
  };
}

/** A charge's outcome, or `retry` when it must run again in a later batch. */
export type BatchOutcome = { ok: boolean; cost: number; balance: number } | 'retry';

/**
 * Charges a batch of calls in one transaction, yielding its statements to whoever runs it (see
 * {@link FixedWork}: this logic knows no dialect), each call checked on its own exactly as if
 * alone: its purchase decides its price, its debit is guarded by `balance >= cost`, a refused one
 * leaves no trace. Locks are taken in one global order, all purchases (by account, dataset,
 * company, period) before all balances (by account), so batches of different instances cannot deadlock.
 *
 * Calls for one purchase key share its insert: the first (in arrival order) pays the first-access
 * price, the others the repeat price. Should that first one be refused for lack of credits, the
 * others were priced on a purchase that no longer exists: they come back as `retry`.
 */
export function* chargeBatch(requests: readonly ChargeRequest[]): Generator<FixedStep, BatchOutcome[], Rows> {
  interface Item {
    req: ChargeRequest;
    index: number;
    /** The batch's first call for the same purchase (itself for that first one); none without a purchase. */
    first: Item | undefined;
    cost: number;
    bought: boolean;
    /** On a first call: its purchase was bought and then dropped, as the call was refused. */
    voided: boolean;
    balance: number;
    outcome: 'refused' | 'charged' | 'retry';
  }
  const items = requests.map(
    (req, index): Item => ({
      req,
      index,
      first: undefined,
      cost: req.price,
      bought: false,
      voided: false,
      balance: -1,
      outcome: 'refused',
    }),
  );
  const plan = batchPlan(requests);
  for (const item of items) item.first = items[plan.first[item.index] ?? -1];
  for (const index of plan.buys) {
    const item = items[index] as Item;
    const p = item.req.purchase as Buying['purchase'];
    const inserted = yield {
      text: SQL.insertPurchase,
      params: [item.req.accountId, p.dataset, p.companyId, p.period, item.req.at],
    };
    item.bought = inserted.length > 0;
  }
  for (const item of items) {
    const p = item.req.purchase;
    if (p !== undefined && !(item.first === item && item.bought)) item.cost = p.repeatPrice;
  }
  // Each account once, in account order: lock it, then price its calls in arrival order.
  const debits = [...items].sort((a, b) => compareText(a.req.accountId, b.req.accountId) || a.index - b.index);
  for (const accountId of plan.accounts) {
    const locked = yield { text: SQL.lockBalance, params: [accountId] };
    const opening = Number(locked[0]?.balance ?? 0);
    let balance = opening;
    for (const item of debits) {
      if (item.req.accountId !== accountId) continue;
      if (item.first?.voided === true) {
        item.outcome = 'retry';
        continue;
      }
      if (balance >= item.cost && locked.length > 0) {
        balance -= item.cost;
        item.outcome = 'charged';
        item.balance = balance;
        continue;
      }
      item.balance = balance;
      const p = item.req.purchase;
      if (item.bought && p !== undefined) {
        yield { text: SQL.dropPurchase, params: [accountId, p.dataset, p.companyId, p.period] };
        item.voided = true;
      }
    }
    const total = opening - balance;
    if (total > 0) {
      // Guarded like any debit; with the row locked it cannot fail, and if it did the batch would roll back.
      const debited = yield { text: SQL.debit, params: [total, accountId, total] };
      if (Number(debited[0]?.balance) !== balance) throw new Error(`balance of ${accountId} moved under its lock`);
    }
  }
  const charged = debits.filter((i) => i.outcome === 'charged');
  if (charged.length > 0) {
    yield {
      text: SQL.insertLedger,
      rows: charged.map(({ req, cost, balance }) => {
        const subject = req.purchase ?? req.subject;
        return [
          req.accountId,
          -cost,
          balance,
          'charge',
          req.endpoint,
          req.keyId,
          subject?.companyId ?? null,
          subject?.period ?? null,
          req.requestId,
          req.at,
          req.detail ?? null,
        ];
      }),
    };
  }
  const touched = new Map<string, string>();
  for (const { req } of charged) if (req.touchKey === true && req.keyId !== null) touched.set(req.keyId, req.at);
  for (const [keyId, at] of [...touched].sort(([a], [b]) => compareText(a, b))) yield { text: SQL.touchKey, params: [at, keyId] };
  return items.map(({ outcome, cost, balance }) =>
    outcome === 'retry' ? 'retry' : { ok: outcome === 'charged', cost, balance },
  );
}
