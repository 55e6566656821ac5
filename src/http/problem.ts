import { type Static, Type } from '@sinclair/typebox';
import type { RefusalExtensions } from '../errors/api-error.js';
import { quality } from './accept.js';

/**
 * RFC 9457 problem details: the JSON form of every error answer, for a client that asks for it with
 * `Accept: application/problem+json` (or `application/json`). Without it an error stays the
 * spec's one plain-text sentence. The members beyond the standard five say what a program needs to
 * act on the refusal without parsing prose.
 */
export const ProblemSchema = Type.Object(
  {
    type: Type.String({
      format: 'uri-reference',
      description: 'Identifies the kind of problem: its entry in the API reference (relative to this server).',
    }),
    title: Type.String({ description: 'The kind of problem, the same for every occurrence of it.' }),
    status: Type.Integer({ minimum: 400, maximum: 599, description: 'The HTTP status code of this answer.' }),
    detail: Type.String({ description: 'This occurrence, in one sentence: the plain-text body of the same answer.' }),
    instance: Type.String({ description: 'urn:uuid: of this request (its X-Request-Id).' }),
    param: Type.Optional(Type.String({ description: 'The query or path parameter the 400 is about.' })),
    required_subscription: Type.Optional(Type.String({ description: 'The subscription a 403 lacks (e.g. "ghg").' })),
    available_periods: Type.Optional(
      Type.Array(Type.Integer(), {
        description: 'On a 404 for a period: the periods the company has in this dataset, most recent first (maybe none).',
      }),
    ),
    did_you_mean: Type.Optional(
      Type.Array(
        Type.Object(
          {
            company_id: Type.String({ format: 'uuid' }),
            company_name: Type.String(),
            ticker: Type.String(),
            mic_code: Type.String(),
          },
          { additionalProperties: false },
        ),
        { description: 'On a 404 for an unknown company: listings that come close, best first (maybe none).' },
      ),
    ),
  },
  { additionalProperties: false, title: 'Problem' },
);
export type Problem = Static<typeof ProblemSchema>;

/** What an error may add to its problem details beyond the standard members (the vocabulary's own). */
export type ProblemExtensions = RefusalExtensions;

export const PROBLEM_TYPE = 'application/problem+json';

/**
 * True when errors should be problem details: the client lists `application/problem+json` or
 * `application/json` and prefers it at least as much as `text/plain` (`*` alone keeps plain text,
 * as curl and browsers send it).
 */
export function wantsProblem(accept: string | undefined): boolean {
  // A quick way out for the usual header; media types are case-insensitive (RFC 9110 §8.3.1).
  if (accept === undefined || !/json/i.test(accept)) return false;
  const json = quality(accept, PROBLEM_TYPE, 'application/json');
  return json > 0 && json >= quality(accept, 'text/plain');
}

const TITLES: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  402: 'Insufficient credits',
  403: 'Subscription required',
  404: 'Not found',
  405: 'Method not allowed',
  406: 'Not acceptable',
  408: 'Request timeout',
  413: 'Request body too large',
  414: 'URI too long',
  415: 'Unsupported media type',
  417: 'Expectation failed',
  429: 'Too many requests',
  431: 'Request header fields too large',
  500: 'Internal server error',
  503: 'Service unavailable',
};

/** The problem details of an answer. `type` points into the API reference's list of errors. */
export function problemOf(status: number, detail: string, requestId: string, extensions: ProblemExtensions = {}): Problem {
  return {
    type: `/docs#error-${status}`,
    title: TITLES[status] ?? 'Error',
    status,
    detail,
    instance: `urn:uuid:${requestId}`,
    ...extensions,
  };
}
