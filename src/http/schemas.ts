import { type TSchema, Type } from '@sinclair/typebox';
import { MIC_CODES } from '../catalog/mic-codes.js';
import { API_YEARS } from '../datasets/period-data.js';

/** Schemas shared by the routes; the OpenAPI document is generated from these same objects. */
export const PlainText = Type.String({ description: 'Plain-text explanation.' });

export const CreditHeaders = {
  'X-Credit-Cost': Type.Integer({ description: 'Credits this request consumed (or would have).' }),
  'X-Credit-Balance': Type.Integer({ description: 'Credits remaining on the account after the request.' }),
} as const;

export const RequestIdHeader = {
  'X-Request-Id': Type.String({ description: 'Unique id of this request, also in the server log.' }),
} as const;

/**
 * `reporting_period` of a dataset's single call: a year of the spec's range or an offset back from
 * the most recent available period. Written as a plain integer only (`^-?[1-9][0-9]*$`; the query
 * guard refuses "02022", "+1", "1e3" before type coercion could accept them). Its rule, which the
 * 400 quotes, names the call that answers the earlier years the data holds (design §11.2).
 */
export function singleCallPeriod(historyPath: string) {
  return callPeriod(`GET ${historyPath}?from=${API_YEARS.first} (or a batch)`);
}

/** `reporting_period` of a single call whose earlier years `earlier` answers (the statement call: each item's history). */
export function callPeriod(earlier: string) {
  const { singleCallFirst, last } = API_YEARS;
  return Type.Union([Type.Integer({ minimum: singleCallFirst, maximum: last }), Type.Integer({ minimum: -6, maximum: -1 })], {
    description:
      `an integer: a year from ${singleCallFirst} to ${last}, or an offset from -6 to -1 (-1 = most recent available period); ` +
      `earlier years: ${earlier}.`,
  });
}

/** `reporting_period` of a batch's job: every year the API answers, or an offset. */
export const BatchReportingPeriod = Type.Union(
  [Type.Integer({ minimum: API_YEARS.first, maximum: API_YEARS.last }), Type.Integer({ minimum: -6, maximum: -1 })],
  {
    description: `an integer: a year from ${API_YEARS.first} to ${API_YEARS.last}, or an offset from -6 to -1 (-1 = most recent available period).`,
  },
);

/**
 * A Market Identifier Code of the spec's list as one enum (design §11.7), not a union of literals,
 * for parameters and records alike: generated clients get one string-union type.
 */
export function micCodeSchema(description: string) {
  return Type.Unsafe<(typeof MIC_CODES)[number]>(Type.String({ enum: [...MIC_CODES], description }));
}

export const CompanyRecordSchema = Type.Object(
  {
    company_id: Type.String({ format: 'uuid', description: 'Internal company identifier.' }),
    company_name: Type.String(),
    ticker: Type.String({ description: 'Ticker of the primary listing.' }),
    mic_code: micCodeSchema('MIC of the primary listing.'),
    country: Type.Union([Type.String(), Type.Null()], { description: 'Country name; null when unknown.' }),
  },
  { additionalProperties: false, title: 'CompanyRecord' },
);

/** A plain-text error response, optionally with credit headers. */
export function textResponse(description: string, headers?: Record<string, TSchema>) {
  return {
    description,
    content: { 'text/plain': { schema: PlainText } },
    ...(headers === undefined ? {} : { headers }),
  };
}

export const commonErrors = {
  400: textResponse('Bad request: the body names the parameter and its rule.'),
  401: textResponse('Missing, malformed, expired or revoked API key.'),
  500: textResponse('Internal server error; the body carries the request id.'),
} as const;

export const AccountSchema = Type.Object(
  {
    account_id: Type.String({ format: 'uuid', description: 'The account the calling key belongs to.' }),
    balance: Type.Integer({ minimum: 0, description: 'Credits on the account.' }),
    subscription: Type.Union([Type.Literal('revenues'), Type.Literal('none')], {
      description: 'The revenues subscription as before datasets were several: revenues when held, else none.',
    }),
    subscriptions: Type.Array(Type.String(), {
      description: 'Every subscription the account holds (revenues, ghg); search and list need none.',
    }),
  },
  { additionalProperties: false, title: 'Account' },
);

export const AvailablePeriodsSchema = Type.Object(
  {
    company_id: Type.String({ format: 'uuid' }),
    reporting_periods: Type.Array(Type.Integer(), {
      description: 'Reporting periods covered by processed documents, most recent first: -1 names the first, -2 the second…',
    }),
  },
  { additionalProperties: false, title: 'AvailablePeriods' },
);
