import type { AppContext } from '../app-context.js';
import type { ChargeRequest, ChargeResult } from '../credits/charge.js';
import { isoTimestamp } from '../credits/iso-timestamp.js';
import type { Dataset } from '../datasets/dataset.js';
import { datasetBill } from '../datasets/dataset-charge.js';
import { resolvePeriod } from '../datasets/period-data.js';
import { boughtPeriods, subscriptionsOf } from './explorer-query.js';
import { balanceOf } from './usage-query.js';

/** Why a quote refuses: the subscription, nothing left to buy, or too few credits. */
export type Refusal = 'subscription' | 'nothing' | 'credits';

/** What buying some periods of a company in a dataset would cost, or why it cannot be bought. */
export type Quote =
  | { ok: true; periods: readonly number[]; unitPrice: number; total: number; balance: number }
  | { ok: false; refusal: Refusal; reason: string; periods: readonly number[]; total: number; balance: number };

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
  const refused = (refusal: Refusal, reason: string): Quote => ({ ok: false, refusal, reason, periods, total, balance });
  if (!subscriptions.has(dataset.subscription)) {
    return refused(
      'subscription',
      `Subscription required: ${dataset.label} needs the ${dataset.subscription} subscription, which this account does not hold.`,
    );
  }
  if (periods.length === 0) return refused('nothing', 'Choose at least one period you have not bought yet.');
  if (total > balance)
    return refused('credits', `Insufficient credits: this purchase costs ${total}, the balance is ${balance}.`);
  return { ok: true, periods, unitPrice, total, balance };
}

/**
 * Buys periods of a company in a dataset as the API's history and batch calls buy several: one
 * all-or-nothing charge ({@link Biller.chargeAll}), each period priced and written exactly as a
 * call of the dataset's single endpoint for it (the dataset's bill: its ledger line names that
 * endpoint, e.g. `revenues`, and the company-period), made without a key. Either every period is
 * charged, or nothing is (the balance does not cover them all, whatever was spent meanwhile): the
 * result's cost is the sum, its balance the one after (before, when refused).
 */
export function buy(
  ctx: AppContext,
  accountId: string,
  requestId: string,
  dataset: Dataset,
  companyId: string,
  periods: readonly number[],
): Promise<ChargeResult> {
  return buyAll(
    ctx,
    accountId,
    requestId,
    companyId,
    periods.map((period) => ({ dataset, period })),
  );
}

/**
 * Buys company-periods of several datasets (a statement's items) in one all-or-nothing charge,
 * each priced and written as {@link buy} writes it.
 */
export function buyAll(
  ctx: AppContext,
  accountId: string,
  requestId: string,
  companyId: string,
  parts: readonly { dataset: Dataset; period: number }[],
): Promise<ChargeResult> {
  const at = isoTimestamp(ctx.clock().getTime());
  return ctx.billing.chargeAll(
    parts.map(
      ({ dataset, period }): ChargeRequest => ({
        ...datasetBill(dataset, companyId, { kind: 'data', period }),
        accountId,
        keyId: null,
        requestId,
        at,
      }),
    ),
  );
}
