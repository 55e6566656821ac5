import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { sendPage } from '../http/respond.js';
import { type ConsoleDeps, pageSession, postedForm } from './console-deps.js';
import { passwordProblem } from './credentials.js';
import { passwordPage } from './password-page.js';
import { deleteOtherSessions } from './sessions.js';

/** Changing the password: the current one is checked (and throttled like a sign-in). */
export function passwordRoutes(app: FastifyInstance, deps: ConsoleDeps): void {
  const { ctx, credentials, throttle } = deps;

  app.get('/account/password', { schema: { hide: true } }, async (request, reply) => {
    const session = await pageSession(deps, request, reply);
    if (session === undefined) return reply;
    return sendPage(reply, 200, passwordPage(session));
  });

  app.post('/account/password', { schema: { hide: true } }, async (request, reply) => {
    const posted = await postedForm(deps, request, reply);
    if (posted === undefined) return reply;
    const { session, form } = posted;
    const attempt = throttle.begin(session.email, request.ip);
    if (attempt.retryAfterSeconds > 0) {
      const text = 'Too many wrong passwords. Try again later.';
      return sendPage(
        reply.header('retry-after', String(attempt.retryAfterSeconds)),
        429,
        passwordPage(session, { kind: 'error', text }),
      );
    }
    if (attempt.delayMs > 0) await sleep(attempt.delayMs);
    if (!(await credentials.checkAccount(session.accountId, form.get('current') ?? ''))) {
      return sendPage(reply, 400, passwordPage(session, { kind: 'error', text: 'The current password is wrong.' }));
    }
    throttle.succeeded(session.email, request.ip);
    const problem = passwordProblem(form.get('password') ?? '', form.get('confirm') ?? '');
    if (problem !== undefined) return sendPage(reply, 400, passwordPage(session, { kind: 'error', text: problem }));
    await credentials.setPassword(session.accountId, form.get('password') ?? '');
    await deleteOtherSessions(ctx.db.kysely, session.accountId, session.sessionId);
    return sendPage(
      reply,
      200,
      passwordPage(session, { kind: 'info', text: 'Your password is changed. Your other sessions are signed out.' }),
    );
  });
}
