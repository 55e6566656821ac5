import type { FastifyReply } from 'fastify';
import type { AppContext } from '../app-context.js';
import type { Caller } from './auth-hook.js';
import { CREDIT_BALANCE_HEADER, CREDIT_COST_HEADER } from './errors.js';

/**
 * The credit headers of a call that costs nothing (account, periods, provenance, a 304): the same
 * two headers as a billed call, so a client reads its balance the same way everywhere. Nothing is
 * written: no ledger row, no charge.
 */
export async function freeCall(ctx: AppContext, reply: FastifyReply, caller: Caller): Promise<number> {
  const balance = caller.mode === 'test' ? 0 : await ctx.billing.balanceOf(caller.accountId);
  reply.header(CREDIT_COST_HEADER, 0).header(CREDIT_BALANCE_HEADER, balance);
  return balance;
}
