import type { FixedStep, FixedWork, Rows } from '../db/fixed-transaction.js';
import type { ChargeRequest } from './charge.js';

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
    'request_id, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  touchKey: 'update api_keys set last_used_at = ? where key_id = ?',
} as const;

const byKey =
  <T>(key: (x: T) => string) =>
  (a: T, b: T) => {
    const ka = key(a);
    const kb = key(b);
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  };

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
  const items = requests.map((req, index) => ({
    req,
    index,
    key:
      req.purchase === undefined
        ? undefined
        : `${req.accountId}|${req.purchase.dataset}|${req.purchase.companyId}|${req.purchase.period}`,
    cost: req.price,
    bought: false,
    balance: -1,
    outcome: 'refused' as 'refused' | 'charged' | 'retry',
  }));
  const firstOfKey = new Map<string, (typeof items)[number]>();
  for (const item of items) if (item.key !== undefined && !firstOfKey.has(item.key)) firstOfKey.set(item.key, item);
  for (const item of [...firstOfKey.values()].sort(byKey((i) => i.key ?? ''))) {
    const p = item.req.purchase;
    if (p === undefined) continue;
    const inserted = yield {
      text: SQL.insertPurchase,
      params: [item.req.accountId, p.dataset, p.companyId, p.period, item.req.at],
    };
    item.bought = inserted.length > 0;
  }
  for (const item of items) {
    const p = item.req.purchase;
    const buysIt = item.bought && firstOfKey.get(item.key ?? '') === item;
    if (p !== undefined && !buysIt) item.cost = p.repeatPrice;
  }
  // Each account once, in account order: lock it, then price its calls in arrival order.
  const voided = new Set<string>();
  const debits = [...items].sort((a, b) => byKey<typeof a>((i) => i.req.accountId)(a, b) || a.index - b.index);
  const accounts = [...new Set(debits.map((i) => i.req.accountId))];
  for (const accountId of accounts) {
    const locked = yield { text: SQL.lockBalance, params: [accountId] };
    const opening = Number(locked[0]?.balance ?? 0);
    let balance = opening;
    for (const item of debits) {
      if (item.req.accountId !== accountId) continue;
      if (item.key !== undefined && voided.has(item.key)) {
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
      if (item.bought && p !== undefined && item.key !== undefined) {
        yield { text: SQL.dropPurchase, params: [accountId, p.dataset, p.companyId, p.period] };
        voided.add(item.key);
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
        ];
      }),
    };
  }
  const touched = new Map<string, string>();
  for (const { req } of charged) if (req.touchKey === true && req.keyId !== null) touched.set(req.keyId, req.at);
  for (const [keyId, at] of [...touched].sort(byKey(([k]) => k))) yield { text: SQL.touchKey, params: [at, keyId] };
  return items.map(({ outcome, cost, balance }) =>
    outcome === 'retry' ? 'retry' : { ok: outcome === 'charged', cost, balance },
  );
}
