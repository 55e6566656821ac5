import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.js';
import { type CookiePolicy, clearCookie, cookiePolicy, readCookie, serializeCookie } from './cookies.js';
import { type ConsoleSession, createSession, deleteSession, findSession, SESSION_TTL_SECONDS } from './sessions.js';

/**
 * Who is signed in to the console, read from the session cookie. Built from the app context by
 * each plugin that needs it (the console and the trace pages); it keeps no state of its own.
 */
export class ConsoleAuth {
  readonly cookies: CookiePolicy;

  constructor(private readonly ctx: AppContext) {
    this.cookies = cookiePolicy(ctx.config.publicUrl);
  }

  /** The request's live session, or undefined. */
  current(request: FastifyRequest): Promise<ConsoleSession | undefined> {
    return findSession(this.ctx.db.kysely, readCookie(request.headers.cookie, this.cookies.session), this.ctx.clock());
  }

  /** Starts a fresh session (never reusing a token the visitor brought: no session fixation). */
  async start(request: FastifyRequest, reply: FastifyReply, accountId: string): Promise<void> {
    await this.end(request);
    const { token } = await createSession(this.ctx.db.kysely, accountId, this.ctx.clock());
    reply.header('set-cookie', [
      serializeCookie(this.cookies, this.cookies.session, token, SESSION_TTL_SECONDS),
      clearCookie(this.cookies, this.cookies.signIn),
    ]);
  }

  /** Ends the request's session, if any; the caller clears the cookie. */
  async end(request: FastifyRequest): Promise<void> {
    const session = await this.current(request);
    if (session !== undefined) await deleteSession(this.ctx.db.kysely, session.sessionId);
  }

  clearSessionCookie(reply: FastifyReply): void {
    reply.header('set-cookie', clearCookie(this.cookies, this.cookies.session));
  }
}

/** A local path to return to after sign-in; anything else (other hosts, `//`, `/\`) becomes the console. */
export function safeNext(next: string | undefined): string {
  if (next !== undefined && /^\/(?![/\\])[\x21-\x7e]*$/.test(next)) return next;
  return '/account/keys';
}
