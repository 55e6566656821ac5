import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { apiRoute } from '../api-route.js';
import { callerOf } from '../auth-hook.js';
import { freeCall } from '../free-call.js';
import { AccountSchema, CreditHeaders, commonErrors } from '../schemas.js';

const TEST_ACCOUNT_ID = '00000000-0000-4000-8000-000000000000';

const schema = {
  operationId: 'getAccount',
  summary: 'The calling key’s account: balance and subscription',
  description: 'Free (X-Credit-Cost: 0): read the balance without spending it. The test token gets a fixed mock account.',
  tags: ['account'],
  security: [{ bearerAuth: [] }],
  querystring: Type.Object({}, { additionalProperties: false }),
  response: {
    200: {
      description: 'The account.',
      headers: CreditHeaders,
      content: { 'application/json': { schema: AccountSchema } },
    },
    ...commonErrors,
  },
};

/** `GET /api/v1/account` (design §11.1): costs 0, writes nothing. */
export function accountRoute(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    app.get('/api/v1/account', apiRoute(ctx, schema), async (request, reply) => {
      const caller = callerOf(request);
      const balance = await freeCall(ctx, reply, caller);
      if (caller.mode === 'test') {
        return reply.send({
          account_id: TEST_ACCOUNT_ID,
          balance,
          subscription: 'revenues',
          subscriptions: [...ctx.subscriptions],
        });
      }
      const held = ctx.subscriptions.filter((s) => caller.subscriptions.has(s));
      // `subscription` stays as scripts know it (design §6): revenues when held, else none.
      const subscription = caller.subscriptions.has('revenues') ? 'revenues' : 'none';
      return reply.send({ account_id: caller.accountId, balance, subscription, subscriptions: held });
    });
  };
}
