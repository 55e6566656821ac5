import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.js';
import type { ChargeRequest } from '../credits/charge.js';
import { isoTimestamp } from '../credits/iso-timestamp.js';
import { ApiError } from '../errors/api-error.js';
import type { Caller } from './auth-hook.js';
import type { Bill } from './bill.js';
import { CREDIT_BALANCE_HEADER, CREDIT_COST_HEADER } from './errors.js';

/**
 * Charges a call made of several billed parts (a history's periods, a batch's jobs) all or
 * nothing, each part priced as the single call would be, and sets the credit headers to the sum;
 * throws the 402 (nothing charged, `X-Credit-Cost` the sum it would have cost) when the balance
 * does not cover every part. A call with no billed part costs 0 and writes nothing. Test-mode
 * calls cost nothing and touch no account.
 */
export async function billAll(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  caller: Caller,
  parts: readonly Bill[],
): Promise<void> {
  if (caller.mode === 'test') {
    reply.header(CREDIT_COST_HEADER, 0).header(CREDIT_BALANCE_HEADER, 0);
    return;
  }
  if (parts.length === 0) {
    reply.header(CREDIT_COST_HEADER, 0).header(CREDIT_BALANCE_HEADER, await ctx.billing.balanceOf(caller.accountId));
    return;
  }
  const now = ctx.clock().getTime();
  const at = isoTimestamp(now);
  const touchKey = ctx.keyUseDue(caller.keyId, now);
  const requests = parts.map(
    (what): ChargeRequest => ({
      accountId: caller.accountId,
      keyId: caller.keyId,
      endpoint: what.endpoint,
      price: what.price,
      purchase: what.purchase,
      subject: what.subject,
      requestId: request.id,
      at,
      touchKey,
    }),
  );
  const result = await ctx.billing.chargeAll(requests);
  if (!result.ok) {
    throw new ApiError(
      'insufficient_credits',
      `Insufficient credits: this call costs ${result.cost}, the balance is ${result.balance}; nothing was charged.`,
      result,
    );
  }
  reply.header(CREDIT_COST_HEADER, result.cost).header(CREDIT_BALANCE_HEADER, result.balance);
}

/** The part a dataset's answer for one company-period bills: a purchase for data, the 204's price otherwise. */
export function periodBill(
  endpoint: string,
  dataset: { name: string; prices: { firstAccess: number; repeat: number; noData: number } },
  companyId: string,
  period: number,
  hasData: boolean,
): Bill {
  return hasData
    ? {
        endpoint,
        price: dataset.prices.firstAccess,
        purchase: { dataset: dataset.name, companyId, period, repeatPrice: dataset.prices.repeat },
      }
    : { endpoint, price: dataset.prices.noData, subject: { companyId, period } };
}
