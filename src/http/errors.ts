import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isConnectionLost } from '../db/connection-lost.js';
import { ApiError, safeName } from '../errors/api-error.js';
import { PROBLEM_TYPE, type ProblemExtensions, problemOf, wantsProblem } from './problem.js';

export const CREDIT_COST_HEADER = 'x-credit-cost';
export const CREDIT_BALANCE_HEADER = 'x-credit-balance';

/**
 * The sentence for a refusal the framework or the HTTP parser makes. Fixed per status: their own
 * messages carry internal codes and echo the client's input (a content type, a path).
 */
const STATUS_SENTENCES: Record<number, string> = {
  400: 'Bad request: the HTTP request is malformed.',
  404: 'Not found: no such route.',
  405: 'Method not allowed.',
  417: 'Expectation failed: the only expectation this server meets is 100-continue.',
  406: 'Not acceptable.',
  408: 'Request timeout: the request did not arrive in time.',
  411: 'Length required.',
  413: 'Request body too large.',
  414: 'URI too long.',
  415: 'Unsupported media type: send the body as application/json.',
  429: 'Too many requests.',
  431: 'Request header fields too large.',
  500: 'Internal Server Error.',
  503: 'Service unavailable.',
};

export function statusSentence(status: number): string {
  return STATUS_SENTENCES[status] ?? `${STATUS_CODES[status] ?? 'Error'}.`;
}

export const TEXT = 'text/plain; charset=utf-8';

/** A failover promotes a standby within seconds; a client retrying sooner finds no writable server. */
const DATABASE_RETRY_AFTER_SECONDS = 2;

/** A query-string or path schema property may carry the sentence that explains its rule in a 400. */
interface ParamRule {
  description?: string;
}

function validationMessage(
  error: FastifyError,
  routeQuery: Record<string, ParamRule> | undefined,
): { message: string; param?: string } {
  const first = error.validation?.[0];
  if (first === undefined) return { message: 'Bad request.' };
  const name =
    (first.params as { missingProperty?: string }).missingProperty ??
    (first.params as { additionalProperty?: string }).additionalProperty ??
    first.instancePath.replace(/^\//, '').split('/')[0] ??
    '';
  const safe = safeName(name);
  if (first.keyword === 'additionalProperties') return { message: `Unknown parameter '${safe}'.`, param: safe };
  if (first.keyword === 'required') return { message: `Missing parameter '${name}'.`, param: name };
  const rule = routeQuery?.[name]?.description;
  return { message: rule === undefined ? `Invalid parameter '${safe}'.` : `Invalid parameter '${safe}': ${rule}`, param: safe };
}

/**
 * Sends an error's body in the form the client asked for: the spec's plain-text sentence, or
 * (Accept: application/problem+json or application/json) RFC 9457 problem details. `plainBody`
 * false: the plain-text form has no body (the spec's 403), while the problem details still say why.
 */
export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  message: string,
  extensions?: ProblemExtensions,
  plainBody = true,
): FastifyReply {
  reply.code(status);
  if (wantsProblem(request.headers.accept)) {
    return reply
      .header('vary', 'accept')
      .type(PROBLEM_TYPE)
      .send(JSON.stringify(problemOf(status, message, request.id, extensions)));
  }
  return reply
    .header('vary', 'accept')
    .type(TEXT)
    .send(plainBody ? message : undefined);
}

/**
 * Sends a refusal the framework made before any route ran (a malformed URL, a path parameter
 * over its length): same form as every other error. Headers are set here because such replies
 * do not pass through the app's onSend hooks.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const status = error.statusCode ?? 500;
  reply.header('x-request-id', request.id).header('x-content-type-options', 'nosniff');
  if (status < 500) return void sendError(request, reply, status, statusSentence(status));
  request.log.error({ err: error }, 'request failed');
  sendError(request, reply, 500, `Internal Server Error (request ${request.id})`);
}

/** Installs the one error handler and the 404 for unknown routes. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) {
      if (error.kind === 'unauthorized') reply.header('www-authenticate', 'Bearer');
      if (error.credits !== undefined) {
        reply.header(CREDIT_COST_HEADER, error.credits.cost).header(CREDIT_BALANCE_HEADER, error.credits.balance);
      }
      for (const [name, value] of Object.entries(error.headers ?? {})) reply.header(name, value);
      // A 403 declares no plain-text body in the spec; its problem details say which subscription it needs.
      return sendError(request, reply, error.status, error.message, error.extensions, error.kind !== 'subscription_required');
    }
    if (error.validation !== undefined) {
      // The rule of the parameter that failed: a query parameter, or a path parameter (the trace id).
      const part = error.validationContext === 'params' ? 'params' : 'querystring';
      const schema = request.routeOptions.schema?.[part] as { properties?: Record<string, ParamRule> } | undefined;
      const { message, param } = validationMessage(error, schema?.properties);
      return sendError(request, reply, 400, message, param === undefined ? undefined : { param });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) return sendError(request, reply, status, statusSentence(status));
    if (isConnectionLost(error)) {
      // The database went away mid-call (a restart, a failover: design §21.2). A charge in flight may
      // have committed; its ledger line carries the request id this answer names.
      request.log.warn({ err: error }, 'database unavailable');
      reply.header('retry-after', DATABASE_RETRY_AFTER_SECONDS);
      return sendError(
        request,
        reply,
        503,
        `Service unavailable: the database connection was lost during request ${request.id}; retry the request.`,
      );
    }
    request.log.error({ err: error }, 'request failed');
    return sendError(request, reply, 500, `Internal Server Error (request ${request.id})`);
  });
  // The path is not echoed: it is the client's input, control characters included.
  app.setNotFoundHandler((request, reply) => {
    sendError(request, reply, 404, statusSentence(404));
  });
}
