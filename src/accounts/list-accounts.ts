import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { type AccountSummary, checkSubscriptions, type OfferedSubscriptions } from './accounts.js';

/** One account as `accounts list` prints it: what `accounts show` prints, and when it was created. */
export interface AccountListing extends AccountSummary {
  created_at: string;
}

/**
 * Every account, oldest first (then by id, for accounts created in the same millisecond): an
 * order that stays put as accounts are added, so scripts can compare two listings.
 */
export async function listAccounts(db: Kysely<Database>, offered: OfferedSubscriptions): Promise<AccountListing[]> {
  const [rows, held] = await Promise.all([
    db
      .selectFrom('accounts')
      .select(['account_id', 'email', 'balance', 'subscription', 'created_at'])
      .orderBy('created_at')
      .orderBy('account_id')
      .execute(),
    db.selectFrom('account_subscriptions').select(['account_id', 'subscription']).execute(),
  ]);
  const byAccount = new Map<string, string[]>();
  for (const h of held) {
    const list = byAccount.get(h.account_id);
    if (list === undefined) byAccount.set(h.account_id, [h.subscription]);
    else list.push(h.subscription);
  }
  return rows.map((r) => ({
    account_id: r.account_id,
    email: r.email,
    balance: Number(r.balance),
    subscription: r.subscription,
    subscriptions: checkSubscriptions(byAccount.get(r.account_id) ?? [], offered),
    created_at: r.created_at,
  }));
}
