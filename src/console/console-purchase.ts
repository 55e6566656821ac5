import type { AppContext } from '../app-context.js';
import { isoTimestamp } from '../credits/iso-timestamp.js';
import type { Dataset } from '../datasets/dataset.js';
import { datasetBill } from '../datasets/dataset-charge.js';
import { resolvePeriod } from '../datasets/period-data.js';
import { boughtPeriods, subscriptionsOf } from './explorer-query.js';
import { balanceOf } from './usage-query.js';

/** What buying some periods of a company in a dataset would cost, or why it cannot be bought. */
export type Quote =
  | { ok: true; periods: readonly number[]; unitPrice: number; total: number; balance: number }
  | { ok: false; reason: string; periods: readonly number[]; total: number; balance: number };

/**
 * Prices the periods asked for: only available periods with figures that the account has not
 * bought yet (a bought one costs nothing more here; a period without figures is not sold).
 * Refused, with the reason, without the dataset's subscription or with too few credits.
 */
export async function quote(
  ctx: AppContext,
  accountId: string,
  dataset: Dataset,
  companyId: string,
  asked: readonly number[],
): Promise<Quote> {
  const db = ctx.db.kysely;
  const [subscriptions, bought, balance, data] = await Promise.all([
    subscriptionsOf(db, accountId),
    boughtPeriods(db, accountId, companyId),
    balanceOf(db, accountId),
    dataset.load(db, companyId, ctx.config.publicUrl),
  ]);
  const mine = bought.get(dataset.name);
  const periods = [...new Set(asked)]
    .filter((p) => resolvePeriod(data, p).kind === 'data' && mine?.has(p) !== true)
    .sort((a, b) => b - a);
  const unitPrice = dataset.prices.firstAccess;
  const total = unitPrice * periods.length;
  if (!subscriptions.has(dataset.subscription)) {
    return {
      ok: false,
      reason: `Subscription required: ${dataset.label} needs the ${dataset.subscription} subscription, which this account does not hold.`,
      periods,
      total,
      balance,
    };
  }
  if (periods.length === 0) {
    return { ok: false, reason: 'Choose at least one period you have not bought yet.', periods, total, balance };
  }
  if (total > balance) {
    return {
      ok: false,
      reason: `Insufficient credits: this purchase costs ${total}, the balance is ${balance}.`,
      periods,
      total,
      balance,
    };
  }
  return { ok: true, periods, unitPrice, total, balance };
}

/** One period's charge, as the API would have answered it. */
export interface Bought {
  period: number;
  ok: boolean;
  cost: number;
  balance: number;
}

/**
 * Buys the periods of a quote that is ok: each period is one charge of the API's own (the
 * dataset's bill, the same biller, the same ledger line naming the dataset's endpoint), exactly
 * as a call of the dataset's endpoint for that period would be charged, made without a key. A
 * charge refused for credits (spent meanwhile elsewhere) charges nothing, and stops the rest.
 */
export async function buy(
  ctx: AppContext,
  accountId: string,
  requestId: string,
  dataset: Dataset,
  companyId: string,
  periods: readonly number[],
): Promise<Bought[]> {
  const results: Bought[] = [];
  for (const period of periods) {
    const bill = datasetBill(dataset, companyId, { kind: 'data', period });
    const result = await ctx.billing.charge({
      accountId,
      keyId: null,
      endpoint: bill.endpoint,
      price: bill.price,
      purchase: bill.purchase,
      subject: bill.subject,
      requestId: `${requestId}/${period}`,
      at: isoTimestamp(ctx.clock().getTime()),
    });
    results.push({ period, ...result });
    if (!result.ok) break;
  }
  return results;
}
