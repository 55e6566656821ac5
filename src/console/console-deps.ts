import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.js';
import { redirectTo, sendErrorPage } from '../http/respond.js';
import type { RateLimiter } from '../limits/rate-limiter.js';
import type { ConsoleAuth } from './console-auth.js';
import type { Credentials } from './credentials.js';
import { tokensMatch } from './csrf.js';
import { type FormFields, formOf } from './form-body.js';
import type { ConsoleSession } from './sessions.js';
import type { SignInThrottle } from './throttle.js';

/** What the console's routes share, built once per app by {@link consoleRoutes}. */
export interface ConsoleDeps {
  readonly ctx: AppContext;
  readonly auth: ConsoleAuth;
  readonly credentials: Credentials;
  readonly throttle: SignInThrottle;
  /** The JWT signing secret, for keys created in the console. */
  readonly secret: string;
  /** The app's rate limiter, shared with the API; undefined when rate limiting is off. */
  readonly limiter: RateLimiter | undefined;
}

/**
 * Counts a console request against its account's bucket, the one its API keys draw from (design
 * §11.6); throws the 429 (with Retry-After) when it is empty, which the console's error handler
 * answers as a page. For what is free in the console but a bulk read all the same: the search.
 */
export function takeRequest(deps: ConsoleDeps, session: ConsoleSession, reply: FastifyReply): void {
  const refused = deps.limiter?.take(session.accountId, reply);
  if (refused !== undefined) throw refused;
}

/** The session of a page request, or undefined after answering with a redirect to sign-in. */
export async function pageSession(
  deps: ConsoleDeps,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<ConsoleSession | undefined> {
  const session = await deps.auth.current(request);
  if (session === undefined) redirectTo(reply, `/account/sign-in?next=${encodeURIComponent(request.url)}`);
  return session;
}

/**
 * The session and form of a POST, or undefined after refusing it with 403: no session, or a form
 * whose CSRF token is not this session's (compared in constant time).
 */
export async function postedForm(
  deps: ConsoleDeps,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<{ session: ConsoleSession; form: FormFields } | undefined> {
  const form = formOf(request.body);
  const session = await deps.auth.current(request);
  if (session === undefined) {
    sendErrorPage(reply, 403, 'Signed out', 'Your session has ended. Sign in again, then repeat what you were doing.');
    return undefined;
  }
  if (!tokensMatch(session.csrf, form.get('csrf'))) {
    sendErrorPage(
      reply,
      403,
      'Form refused',
      'This form did not come from your current session. Go back, reload the page and try again.',
    );
    return undefined;
  }
  return { session, form };
}

/** A query-string parameter given once as text; undefined otherwise. */
export function queryText(query: unknown, name: string): string | undefined {
  const value = (query as Record<string, unknown> | null)?.[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
