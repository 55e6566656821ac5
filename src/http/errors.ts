import type { FastifyError, FastifyInstance } from 'fastify';
import type { AuthFailure } from '../auth/verify-key.js';

/**
 * The closed set of refusals the API makes. Domain and route code throw these; one handler turns
 * them into the status, plain-text body and headers of the spec.
 */
export type ApiErrorKind =
  | 'bad_request'
  | 'unauthorized'
  | 'insufficient_credits'
  | 'subscription_required'
  | 'not_found'
  | 'method_not_allowed'
  | 'rate_limited';

const STATUS: Record<ApiErrorKind, number> = {
  bad_request: 400,
  unauthorized: 401,
  insufficient_credits: 402,
  subscription_required: 403,
  not_found: 404,
  method_not_allowed: 405,
  rate_limited: 429,
};

export interface CreditInfo {
  cost: number;
  balance: number;
}

export class ApiError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    readonly credits?: CreditInfo,
    /** Headers the refusal must carry (`Allow` on a 405, `Retry-After` on a 429). */
    readonly headers?: Readonly<Record<string, string | number>>,
  ) {
    super(message);
  }

  get status(): number {
    return STATUS[this.kind];
  }
}

export function badRequest(message: string): ApiError {
  return new ApiError('bad_request', message);
}

const AUTH_MESSAGES: Record<AuthFailure, string> = {
  missing: 'Missing credentials: send the header "Authorization: Bearer <API key>".',
  malformed: 'Malformed credentials: the Authorization header must be "Bearer <API key>" with a valid key.',
  bad_signature: 'Invalid API key: its signature does not verify.',
  bad_algorithm: 'Invalid API key: it is not signed with the accepted algorithm.',
  expired: 'Expired API key: create a new one in the console.',
  revoked: 'Revoked or unknown API key.',
};

export function unauthorized(failure: AuthFailure): ApiError {
  return new ApiError('unauthorized', AUTH_MESSAGES[failure]);
}

/** Only GET reaches the API (DESIGN §11.4): HEAD would be billed like GET, and nothing else exists. */
export function methodNotAllowed(method: string): ApiError {
  return new ApiError('method_not_allowed', `Method ${method} is not allowed: the API answers GET only.`, undefined, {
    allow: 'GET',
  });
}

export const CREDIT_COST_HEADER = 'x-credit-cost';
export const CREDIT_BALANCE_HEADER = 'x-credit-balance';

/** A query-string schema property may carry the sentence that explains its rule in a 400. */
interface ParamRule {
  description?: string;
}

function validationMessage(error: FastifyError, routeQuery: Record<string, ParamRule> | undefined): string {
  const first = error.validation?.[0];
  if (first === undefined) return 'Bad request.';
  const name =
    (first.params as { missingProperty?: string }).missingProperty ??
    (first.params as { additionalProperty?: string }).additionalProperty ??
    first.instancePath.replace(/^\//, '').split('/')[0] ??
    '';
  if (first.keyword === 'additionalProperties') return `Unknown parameter '${name}'.`;
  if (first.keyword === 'required') return `Missing parameter '${name}'.`;
  const rule = routeQuery?.[name]?.description;
  return rule === undefined ? `Invalid parameter '${name}'.` : `Invalid parameter '${name}': ${rule}`;
}

/** Installs the one error handler and the plain-text 404 for unknown routes. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    reply.type('text/plain; charset=utf-8');
    if (error instanceof ApiError) {
      if (error.kind === 'unauthorized') reply.header('www-authenticate', 'Bearer');
      if (error.credits !== undefined) {
        reply.header(CREDIT_COST_HEADER, error.credits.cost).header(CREDIT_BALANCE_HEADER, error.credits.balance);
      }
      for (const [name, value] of Object.entries(error.headers ?? {})) reply.header(name, value);
      // A 403 declares no body in the spec.
      return reply.code(error.status).send(error.kind === 'subscription_required' ? undefined : error.message);
    }
    if (error.validation !== undefined) {
      const schema = request.routeOptions.schema?.querystring as { properties?: Record<string, ParamRule> } | undefined;
      return reply.code(400).send(validationMessage(error, schema?.properties));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) return reply.code(status).send(`${error.message}.`.replace(/\.\.$/, '.'));
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send(`Internal Server Error (request ${request.id})`);
  });
  app.setNotFoundHandler((request, reply) => {
    reply
      .code(404)
      .type('text/plain; charset=utf-8')
      .send(`No route ${request.method} ${request.url.split('?')[0]}.`);
  });
}
