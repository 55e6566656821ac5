import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.js';
import type { ChargeRequest } from '../credits/charge.js';
import { isoTimestamp } from '../credits/iso-timestamp.js';
import { ApiError } from '../errors/api-error.js';
import type { Caller } from './auth-hook.js';
import { CREDIT_BALANCE_HEADER, CREDIT_COST_HEADER } from './errors.js';

/** What a route says about the call it bills; the rest comes from the request and its caller. */
export type Bill = Pick<ChargeRequest, 'endpoint' | 'price' | 'purchase' | 'subject' | 'detail'>;

/** What {@link bill} does for a test-mode call, without a promise: it costs nothing and touches no account. */
export function billTestMode(reply: FastifyReply): void {
  reply.header(CREDIT_COST_HEADER, 0).header(CREDIT_BALANCE_HEADER, 0);
}

/**
 * Charges the caller for this call and sets the credit headers, or throws the 402. Test-mode calls
 * cost nothing and touch no account.
 */
export async function bill(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  caller: Caller,
  what: Bill,
): Promise<void> {
  if (caller.mode === 'test') {
    billTestMode(reply);
    return;
  }
  const now = ctx.clock().getTime();
  // Spelled out, not spread from `what`: this object is made on every billed call.
  const result = await ctx.billing.charge({
    accountId: caller.accountId,
    keyId: caller.keyId,
    endpoint: what.endpoint,
    price: what.price,
    purchase: what.purchase,
    subject: what.subject,
    detail: what.detail,
    requestId: request.id,
    at: isoTimestamp(now),
    touchKey: ctx.keyUseDue(caller.keyId, now),
  });
  if (!result.ok) {
    throw new ApiError(
      'insufficient_credits',
      `Insufficient credits: this call costs ${result.cost}, the balance is ${result.balance}.`,
      result,
    );
  }
  reply.header(CREDIT_COST_HEADER, result.cost).header(CREDIT_BALANCE_HEADER, result.balance);
}
