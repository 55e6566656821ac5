import { randomBytes } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { ApiError } from '../errors/api-error.js';
import { html, page } from '../web/html.js';
import { lists } from './accept.js';
import { sendError, statusSentence } from './errors.js';

/** A per-response nonce for the one inline script a page may carry. */
export function scriptNonce(): string {
  return randomBytes(16).toString('base64');
}

/**
 * Sends an HTML page, public or private. Console and trace pages show private data (keys,
 * balances, paid values), so nothing may keep a copy (`no-store`), no other site may frame them
 * (clickjacking a revoke button), forms may only post here, and scripts run only with this
 * response's nonce (and connect only where `fetchesSelf` says so); the public pages get the same
 * rules, having no reason to differ. (`nosniff`
 * is on every response of the app.)
 */
export function sendPage(
  reply: FastifyReply,
  status: number,
  document: string,
  nonce?: string,
  options: { fetchesSelf?: boolean } = {},
): FastifyReply {
  const script = nonce === undefined ? "'none'" : `'nonce-${nonce}'`;
  // Only a page whose script asks this server for fragments (the company search) may connect.
  const connect = options.fetchesSelf === true ? " connect-src 'self';" : '';
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header(
      'content-security-policy',
      `default-src 'none';${connect} style-src 'unsafe-inline'; script-src ${script}; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
    )
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'same-origin')
    .send(document);
}

/** After a POST: 303, so the browser follows with a GET and a reload does not post again. */
export function redirectTo(reply: FastifyReply, location: string): FastifyReply {
  return reply.code(303).header('cache-control', 'no-store').header('location', location).send();
}

/** A whole error page: a heading, one sentence and a way on. */
export function sendErrorPage(reply: FastifyReply, status: number, title: string, message: string): FastifyReply {
  const body = html`<h1>${title}</h1><p>${message}</p><p><a href="/account">Go to your account</a> · <a href="/">Home</a></p>`;
  return sendPage(reply, status, page(title, body));
}

/** Answers errors of HTML routes with an HTML page; a 5xx shows only the request id, the log has the rest. */
export function installPageErrors(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) {
      // A refusal of the shared hooks (the rate limit): its headers, and its sentence as a page, or
      // in the API's error form to a client that asked a trace page for JSON.
      for (const [name, value] of Object.entries(error.headers ?? {})) reply.header(name, value);
      if (wantsJson(request.headers.accept)) {
        return sendError(request, reply.header('cache-control', 'no-store'), error.status, error.message, error.extensions);
      }
      return sendErrorPage(reply, error.status, statusSentence(error.status).replace(/\.$/, ''), error.message);
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return sendErrorPage(reply, 500, 'Something went wrong', `Internal Server Error (request ${request.id}).`);
    }
    // The framework's own message may name internal codes or echo the client's input.
    return sendErrorPage(reply, status, 'Request refused', statusSentence(status));
  });
}

/** True when the client asks for JSON rather than a page (browsers always list text/html). */
export function wantsJson(accept: string | undefined): boolean {
  return lists(accept, 'application/json') && !lists(accept, 'text/html');
}
