import type { components } from './schema.js';

/** RFC 9457 problem details, as the server sends them when asked (Accept: application/problem+json). */
export type Problem = components['schemas']['Problem'];
/** A listing that comes close to an unknown company (on a 404). */
export type DidYouMean = NonNullable<Problem['did_you_mean']>[number];

/**
 * What went wrong: a program branches on `kind`, not on numbers. `network` (no answer: connection
 * refused or reset, name not found), `timeout` (the call's `timeout` ran out) and `aborted` (the
 * caller's `signal`) come from the client; the others from the server's status.
 */
export type CorpdataErrorKind =
  | 'bad_request'
  | 'unauthorized'
  | 'insufficient_credits'
  | 'subscription_required'
  | 'not_found'
  | 'method_not_allowed'
  | 'rate_limited'
  | 'server_error'
  | 'bad_gateway'
  | 'unavailable'
  | 'gateway_timeout'
  | 'network'
  | 'timeout'
  | 'aborted'
  | 'unexpected';

const KINDS: Record<number, CorpdataErrorKind> = {
  400: 'bad_request',
  401: 'unauthorized',
  402: 'insufficient_credits',
  403: 'subscription_required',
  404: 'not_found',
  405: 'method_not_allowed',
  429: 'rate_limited',
  500: 'server_error',
  502: 'bad_gateway',
  503: 'unavailable',
  504: 'gateway_timeout',
};

/** Credits as the server reported them in X-Credit-Cost and X-Credit-Balance. */
export interface Credits {
  cost: number;
  balance: number;
}

export function creditsOf(response: Response): Credits | undefined {
  const cost = response.headers.get('x-credit-cost');
  const balance = response.headers.get('x-credit-balance');
  return cost === null || balance === null ? undefined : { cost: Number(cost), balance: Number(balance) };
}

function isProblem(body: unknown): body is Problem {
  return typeof body === 'object' && body !== null && typeof (body as { detail?: unknown }).detail === 'string';
}

/** What a CorpdataError is made of; everything but `kind` and `message` is optional. */
export interface CorpdataErrorInit {
  kind: CorpdataErrorKind;
  message: string;
  status?: number | undefined;
  problem?: Problem | undefined;
  response?: Response | undefined;
  cause?: unknown;
}

/**
 * A refusal of the API, or a call that got no answer. For a refusal, `message` is the server's
 * sentence (the problem's `detail`), and the problem details say what a program needs to recover:
 * the `param` of a 400, the `requiredSubscription` of a 403, the `availablePeriods` or
 * `didYouMean` listings of a 404. `requestId` is what to quote to the operator.
 */
export class CorpdataError extends Error {
  readonly kind: CorpdataErrorKind;
  /** The HTTP status; 0 when no answer came (`network`, `timeout`, `aborted`). */
  readonly status: number;
  readonly requestId: string | null;
  readonly credits: Credits | undefined;
  /** Seconds the server asked to wait (429, 503). */
  readonly retryAfter: number | undefined;
  /** The problem details as sent, when the server sent them. */
  readonly problem: Problem | undefined;
  /** The kind of problem, the same for every occurrence (e.g. "Subscription required"). */
  readonly title: string | undefined;
  /** This occurrence in one sentence (the same as `message` when the server sent it). */
  readonly detail: string | undefined;
  /** The query or path parameter a 400 is about. */
  readonly param: string | undefined;
  /** The subscription a 403 lacks (e.g. "ghg"). */
  readonly requiredSubscription: string | undefined;
  /** On a 404 for a period: the periods the company has in this dataset, most recent first. */
  readonly availablePeriods: number[] | undefined;
  /** On a 404 for an unknown company: listings that come close, best first. */
  readonly didYouMean: DidYouMean[] | undefined;

  constructor(init: CorpdataErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'CorpdataError';
    this.kind = init.kind;
    this.status = init.status ?? 0;
    const response = init.response;
    this.requestId = response?.headers.get('x-request-id') ?? null;
    this.credits = response === undefined ? undefined : creditsOf(response);
    const retryAfter = response?.headers.get('retry-after');
    this.retryAfter = retryAfter === null || retryAfter === undefined ? undefined : Number(retryAfter);
    const problem = init.problem;
    this.problem = problem;
    this.title = problem?.title;
    this.detail = problem?.detail;
    this.param = problem?.param;
    this.requiredSubscription = problem?.required_subscription;
    this.availablePeriods = problem?.available_periods;
    this.didYouMean = problem?.did_you_mean;
  }

  /**
   * The error of a refused call, from its answer and its body as read (problem details, a plain
   * sentence, or nothing).
   */
  static fromResponse(response: Response, body: unknown): CorpdataError {
    const problem = isProblem(body) ? body : undefined;
    const text = typeof body === 'string' ? body.trim().slice(0, 500) : '';
    const message = problem?.detail ?? (text === '' ? `HTTP ${response.status}` : text);
    return new CorpdataError({
      kind: KINDS[response.status] ?? 'unexpected',
      status: response.status,
      message,
      problem,
      response,
    });
  }
}
