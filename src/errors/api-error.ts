import type { AuthFailure } from '../auth/verify-key.js';

/** What a refusal may tell a program beyond its sentence: the extension members of its problem details. */
export interface RefusalExtensions {
  /** The query or path parameter a 400 is about. */
  param?: string;
  /** The subscription a 403 lacks. */
  required_subscription?: string;
  /** On a 404 for a period: the periods the company has in the dataset. */
  available_periods?: number[];
  /** On a 404 for an unknown company: listings that come close. */
  did_you_mean?: Array<{ company_id: string; company_name: string; ticker: string; mic_code: string }>;
}

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
  | 'rate_limited'
  | 'unavailable';

const STATUS: Record<ApiErrorKind, number> = {
  bad_request: 400,
  unauthorized: 401,
  insufficient_credits: 402,
  subscription_required: 403,
  not_found: 404,
  method_not_allowed: 405,
  rate_limited: 429,
  unavailable: 503,
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
    /** What its problem details add for a program (the parameter, the periods that exist…). */
    readonly extensions?: RefusalExtensions,
  ) {
    super(message);
  }

  get status(): number {
    return STATUS[this.kind];
  }
}

/** A 400; `param` names the parameter it is about, for the problem details. */
export function badRequest(message: string, param?: string): ApiError {
  return new ApiError('bad_request', message, undefined, undefined, param === undefined ? undefined : { param });
}

const AUTH_MESSAGES: Record<AuthFailure, string> = {
  missing: 'Missing credentials: send the header "Authorization: Bearer <API key>".',
  malformed: 'Malformed credentials: the Authorization header must be "Bearer <API key>" with a valid key.',
  bad_signature: 'Invalid API key: its signature does not verify.',
  bad_algorithm: 'Invalid API key: it is not signed with the accepted algorithm.',
  expired: 'Expired API key: create a new one in the console.',
  not_yet_valid: 'API key not yet valid: its "nbf" time has not come.',
  unsupported_critical: 'Invalid API key: it names a critical header extension this server does not support.',
  revoked: 'Revoked or unknown API key.',
};

export function unauthorized(failure: AuthFailure): ApiError {
  return new ApiError('unauthorized', AUTH_MESSAGES[failure]);
}

/**
 * Only GET reaches the API (design §11.4): HEAD would be billed like GET, and nothing else exists;
 * the documented POST operations (batches of jobs) answer POST only.
 */
export function methodNotAllowed(method: string, allowed = 'GET'): ApiError {
  const only =
    allowed === 'GET'
      ? 'the API answers GET only'
      : allowed.includes(',')
        ? `this path answers ${allowed} only`
        : `this operation answers ${allowed} only`;
  return new ApiError('method_not_allowed', `Method ${method} is not allowed: ${only}.`, undefined, {
    allow: allowed,
  });
}

/** A request that arrives on an open connection while the instance shuts down: retry elsewhere. */
export function shuttingDown(): ApiError {
  return new ApiError('unavailable', 'Service unavailable: this instance is shutting down; retry the request.');
}

/**
 * A client-chosen name (an unknown parameter) as it may appear in an error: printable ASCII only
 * and short, so no control sequence (`\x1b[31m`, CR LF) ever reaches a terminal or a log viewer.
 */
export function safeName(name: string): string {
  const printable = name.replace(/[^\x20-\x7e]/g, '?');
  return printable.length > 64 ? `${printable.slice(0, 64)}…` : printable;
}
