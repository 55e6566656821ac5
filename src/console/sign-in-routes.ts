import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { redirectTo, sendErrorPage, sendPage } from '../http/respond.js';
import { safeNext } from './console-auth.js';
import { type ConsoleDeps, postedForm, queryText } from './console-deps.js';
import { readCookie, serializeCookie } from './cookies.js';
import { isToken, newToken, tokensMatch } from './csrf.js';
import { formOf, textField } from './form-body.js';
import { SESSION_TTL_SECONDS } from './sessions.js';
import { signInPage } from './sign-in-page.js';

/** The one answer to any failed sign-in: it does not tell an unknown email from a wrong password. */
export const SIGN_IN_FAILED = 'Wrong email or password.';

/** `/account`, sign-in and sign-out. */
export function signInRoutes(app: FastifyInstance, deps: ConsoleDeps): void {
  const { auth, throttle, credentials } = deps;
  const cookies = auth.cookies;

  app.get('/account', { schema: { hide: true } }, async (request, reply) => {
    return redirectTo(reply, (await auth.current(request)) === undefined ? '/account/sign-in' : '/account/keys');
  });

  app.get('/account/sign-in', { schema: { hide: true } }, async (request, reply) => {
    const next = safeNext(queryText(request.query, 'next'));
    if ((await auth.current(request)) !== undefined) return redirectTo(reply, next);
    // Before any session exists, the form's CSRF token is a random cookie the form must echo (double submit).
    let csrf = readCookie(request.headers.cookie, cookies.signIn);
    if (!isToken(csrf)) {
      csrf = newToken();
      reply.header('set-cookie', serializeCookie(cookies, cookies.signIn, csrf, SESSION_TTL_SECONDS));
    }
    return sendPage(reply, 200, signInPage({ csrf, next }));
  });

  app.post('/account/sign-in', { schema: { hide: true } }, async (request, reply) => {
    const form = formOf(request.body);
    const csrf = readCookie(request.headers.cookie, cookies.signIn);
    if (!isToken(csrf) || !tokensMatch(csrf, form.get('csrf'))) {
      return sendErrorPage(
        reply,
        403,
        'Form refused',
        'The sign-in form has expired or did not come from this site. Reload it and try again.',
      );
    }
    const email = textField(form, 'email');
    const next = safeNext(form.get('next'));
    const attempt = throttle.begin(email, request.ip);
    if (attempt.retryAfterSeconds > 0) {
      const minutes = Math.ceil(attempt.retryAfterSeconds / 60);
      const error = `Too many failed sign-ins from this address. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
      return sendPage(
        reply.header('retry-after', String(attempt.retryAfterSeconds)),
        429,
        signInPage({ csrf, next, email, error }),
      );
    }
    // Guesses at this email from other addresses slow every attempt at it, never refuse it.
    if (attempt.delayMs > 0) await sleep(attempt.delayMs);
    const accountId = await credentials.check(email, form.get('password') ?? '');
    if (accountId === undefined) return sendPage(reply, 401, signInPage({ csrf, next, email, error: SIGN_IN_FAILED }));
    throttle.succeeded(email, request.ip);
    await auth.start(request, reply, accountId);
    return redirectTo(reply, next);
  });

  app.post('/account/sign-out', { schema: { hide: true } }, async (request, reply) => {
    if ((await auth.current(request)) !== undefined) {
      const posted = await postedForm(deps, request, reply);
      if (posted === undefined) return reply;
      await auth.end(request);
    }
    auth.clearSessionCookie(reply);
    return redirectTo(reply, '/account/sign-in');
  });
}
