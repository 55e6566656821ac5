import type { Transaction } from 'kysely';
import type { Dialect } from '../db/connect.js';
import { fixedQuery } from '../db/fixed-query.js';
import type { Database } from '../db/schema.js';
import type { ChargeRequest } from './charge.js';

/** The billed path's statements, compiled once per dialect (see {@link fixedQuery}). */
export function chargeStatements(dialect: Dialect) {
  return {
    insertPurchase: fixedQuery<{ account_id: string }>(
      dialect,
      'insert into purchases (account_id, dataset, company_id, reporting_period, created_at) values (?, ?, ?, ?, ?) ' +
        'on conflict (account_id, dataset, company_id, reporting_period) do nothing returning account_id',
    ),
    dropPurchase: fixedQuery<never>(
      dialect,
      'delete from purchases where account_id = ? and dataset = ? and company_id = ? and reporting_period = ?',
    ),
    // A no-op write: locks the account (a row lock on PostgreSQL, the write lock on SQLite) and reads its balance.
    lockBalance: fixedQuery<{ balance: number }>(
      dialect,
      'update accounts set balance = balance where account_id = ? returning balance',
    ),
    debit: fixedQuery<{ balance: number }>(
      dialect,
      'update accounts set balance = balance - ? where account_id = ? and balance >= ? returning balance',
    ),
    touchKey: fixedQuery<never>(dialect, 'update api_keys set last_used_at = ? where key_id = ?'),
  };
}

export type ChargeStatements = ReturnType<typeof chargeStatements>;

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
 * Charges a batch of calls inside the caller's transaction, each checked on its own exactly as if
 * alone: its purchase decides its price, its debit is guarded by `balance >= cost`, a refused one
 * leaves no trace. Locks are taken in one global order, all purchases (by account, dataset,
 * company, period) before all balances (by account), so batches of different instances cannot deadlock.
 *
 * Calls for one purchase key share its insert: the first (in arrival order) pays the first-access
 * price, the others the repeat price. Should that first one be refused for lack of credits, the
 * others were priced on a purchase that no longer exists: they come back as `retry`.
 */
export async function chargeBatch(
  trx: Transaction<Database>,
  st: ChargeStatements,
  requests: readonly ChargeRequest[],
): Promise<BatchOutcome[]> {
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
    const inserted = await trx.executeQuery(
      st.insertPurchase([item.req.accountId, p.dataset, p.companyId, p.period, item.req.at]),
    );
    item.bought = inserted.rows.length > 0;
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
    const locked = await trx.executeQuery(st.lockBalance([accountId]));
    const opening = Number(locked.rows[0]?.balance ?? 0);
    let balance = opening;
    for (const item of debits) {
      if (item.req.accountId !== accountId) continue;
      if (item.key !== undefined && voided.has(item.key)) {
        item.outcome = 'retry';
        continue;
      }
      if (balance >= item.cost && locked.rows.length > 0) {
        balance -= item.cost;
        item.outcome = 'charged';
        item.balance = balance;
        continue;
      }
      item.balance = balance;
      const p = item.req.purchase;
      if (item.bought && p !== undefined && item.key !== undefined) {
        await trx.executeQuery(st.dropPurchase([accountId, p.dataset, p.companyId, p.period]));
        voided.add(item.key);
      }
    }
    const total = opening - balance;
    if (total > 0) {
      // Guarded like any debit; with the row locked it cannot fail, and if it did the batch would roll back.
      const debited = await trx.executeQuery(st.debit([total, accountId, total]));
      if (Number(debited.rows[0]?.balance) !== balance) throw new Error(`balance of ${accountId} moved under its lock`);
    }
  }
  const charged = debits.filter((i) => i.outcome === 'charged');
  if (charged.length > 0) {
    await trx
      .insertInto('ledger')
      .values(
        charged.map(({ req, cost, balance }) => {
          const subject = req.purchase ?? req.subject;
          return {
            account_id: req.accountId,
            amount: -cost,
            balance_after: balance,
            kind: 'charge' as const,
            endpoint: req.endpoint,
            key_id: req.keyId,
            company_id: subject?.companyId ?? null,
            reporting_period: subject?.period ?? null,
            request_id: req.requestId,
            created_at: req.at,
          };
        }),
      )
      .execute();
  }
  const touched = new Map<string, string>();
  for (const { req } of charged) if (req.touchKey === true && req.keyId !== null) touched.set(req.keyId, req.at);
  for (const [keyId, at] of [...touched].sort(byKey(([k]) => k))) await trx.executeQuery(st.touchKey([at, keyId]));
  return items.map(({ outcome, cost, balance }) =>
    outcome === 'retry' ? 'retry' : { ok: outcome === 'charged', cost, balance },
  );
}
