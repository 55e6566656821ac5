import type { FastifyInstance } from 'fastify';
import { createKey, KeyError, revokeKey } from '../auth/api-keys.js';
import { redirectTo, scriptNonce, sendErrorPage, sendPage } from '../http/respond.js';
import { type ConsoleDeps, pageSession, postedForm, queryText } from './console-deps.js';
import { textField } from './form-body.js';
import { KEY_LIFETIMES, keyCreatedPage, keysPage, revokeConfirmPage } from './keys-page.js';
import { findOwnKey, listKeys } from './keys-query.js';

interface KeyParams {
  keyId: string;
}

const NO_SUCH_KEY = 'You have no key with this id.';

/** The API key settings page: list, create (shown once), revoke (after a confirmation step). */
export function keyRoutes(app: FastifyInstance, deps: ConsoleDeps): void {
  const { ctx } = deps;
  const db = ctx.db.kysely;

  app.get('/account/keys', { schema: { hide: true } }, async (request, reply) => {
    const session = await pageSession(deps, request, reply);
    if (session === undefined) return reply;
    const keys = await listKeys(db, session.accountId, ctx.clock());
    const revoked = keys.find((k) => k.keyId === queryText(request.query, 'revoked') && k.status === 'revoked');
    const message = revoked === undefined ? undefined : { kind: 'info' as const, text: `Key “${revoked.name}” is revoked.` };
    return sendPage(reply, 200, keysPage(session, keys, message));
  });

  app.post('/account/keys', { schema: { hide: true } }, async (request, reply) => {
    const posted = await postedForm(deps, request, reply);
    if (posted === undefined) return reply;
    const { session, form } = posted;
    const now = ctx.clock();
    const lifetime = KEY_LIFETIMES.find((l) => l.value === textField(form, 'lifetime'));
    const refuse = async (text: string) =>
      sendPage(reply, 400, keysPage(session, await listKeys(db, session.accountId, now), { kind: 'error', text }));
    if (lifetime === undefined) return refuse('Choose one of the offered expiry periods.');
    try {
      const created = await createKey(db, {
        accountId: session.accountId,
        name: textField(form, 'name'),
        secret: deps.secret,
        now,
        maxKeys: ctx.config.keysPerAccount,
        ...(lifetime.days === undefined ? {} : { expiresInSeconds: lifetime.days * 86_400 }),
      });
      const nonce = scriptNonce();
      return sendPage(reply, 200, keyCreatedPage(session, textField(form, 'name'), created.api_key, nonce), nonce);
    } catch (error) {
      if (error instanceof KeyError) return refuse(`${error.message.charAt(0).toUpperCase()}${error.message.slice(1)}.`);
      throw error;
    }
  });

  app.get<{ Params: KeyParams }>('/account/keys/:keyId/revoke', { schema: { hide: true } }, async (request, reply) => {
    const session = await pageSession(deps, request, reply);
    if (session === undefined) return reply;
    const key = await findOwnKey(db, session.accountId, request.params.keyId, ctx.clock());
    if (key === undefined) return sendErrorPage(reply, 404, 'No such key', NO_SUCH_KEY);
    if (key.status === 'revoked') return redirectTo(reply, '/account/keys');
    return sendPage(reply, 200, revokeConfirmPage(session, key));
  });

  app.post<{ Params: KeyParams }>('/account/keys/:keyId/revoke', { schema: { hide: true } }, async (request, reply) => {
    const posted = await postedForm(deps, request, reply);
    if (posted === undefined) return reply;
    const { accountId } = posted.session;
    const now = ctx.clock();
    // Only the signed-in account's own keys: another account's key id is "no such key".
    const key = await findOwnKey(db, accountId, request.params.keyId, now);
    if (key === undefined || !(await revokeKey(db, key.keyId, now, accountId))) {
      return sendErrorPage(reply, 404, 'No such key', NO_SUCH_KEY);
    }
    // revokeKey bumped the auth version for the other instances; this one forgets at once.
    ctx.verifier.invalidate();
    return redirectTo(reply, `/account/keys?revoked=${key.keyId}`);
  });
}
