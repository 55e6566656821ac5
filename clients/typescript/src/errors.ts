/** What went wrong, by status: a program branches on `kind`, not on numbers. */
export type CorpdataErrorKind =
  | 'bad_request'
  | 'unauthorized'
  | 'insufficient_credits'
  | 'subscription_required'
  | 'not_found'
  | 'method_not_allowed'
  | 'rate_limited'
  | 'unavailable'
  | 'server_error'
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
  503: 'unavailable',
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

/**
 * A refusal of the API. The message is the server's plain-text sentence (it names the parameter
 * of a 400); `requestId` is what to quote to the operator.
 */
export class CorpdataError extends Error {
  readonly kind: CorpdataErrorKind;
  readonly requestId: string | null;
  readonly credits: Credits | undefined;
  /** Seconds the server asked to wait (429, 503). */
  readonly retryAfter: number | undefined;

  constructor(
    readonly status: number,
    message: string,
    response: Response,
  ) {
    super(message === '' ? `HTTP ${status}` : message);
    this.name = 'CorpdataError';
    this.kind = KINDS[status] ?? 'unexpected';
    this.requestId = response.headers.get('x-request-id');
    this.credits = creditsOf(response);
    const retryAfter = response.headers.get('retry-after');
    this.retryAfter = retryAfter === null ? undefined : Number(retryAfter);
  }
}
