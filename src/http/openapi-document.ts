import type { Dataset } from '../datasets/dataset.js';
import { subscriptionsOf } from '../datasets/dataset-list.js';
import { NOT_FOUND_EXAMPLE, PARAMETER_EXAMPLES, REQUEST_EXAMPLES, responseExamples } from './openapi-examples.js';
import { PROBLEM_TYPE, ProblemSchema, problemOf } from './problem.js';
import { FUNDAMENTALS_PERIOD, fundamentalsExample, statementNeeds } from './routes/fundamentals.js';
import { singleCallPeriod } from './schemas.js';

/**
 * Turns the document @fastify/swagger generates from the route schemas into the one served at
 * /api/v1/openapi.json (design §11.7), for generated clients and linters: named schemas in
 * `components` referenced by `$ref` (one `CompanyRecord` type, not one per operation), the headers
 * every answer carries marked required, the refusals every operation may meet (401's
 * `WWW-Authenticate`, 429 with `Retry-After`), an example for each parameter and response body,
 * licence and contact. Route schemas stay the source of truth for validation; this only adds.
 */

type Json = Record<string, unknown>;

interface Header {
  description: string;
  required: boolean;
  schema: Json;
  example?: unknown;
}

/**
 * Schemas that get a name in `components.schemas`, found by the `title` the route schemas give
 * them: the fixed ones, and every dataset's record and provenance.
 */
function namedSchemas(datasets: readonly Dataset[]): ReadonlySet<string> {
  return new Set([
    'Problem',
    'CompanyRecord',
    'Account',
    'AvailablePeriods',
    'Event',
    'EventPage',
    'Status',
    'SourceStatus',
    ...datasets
      .flatMap((d) => [d.recordSchema.title, d.provenanceSchema?.title])
      .flatMap((t) => (t === undefined ? [] : [String(t)])),
  ]);
}

const REQUEST_ID: Header = {
  description: 'Unique id of this request, also in the server log (and in the body of a 500).',
  required: true,
  schema: { type: 'string', format: 'uuid' },
  example: '3b8f0a52-6f0e-4f57-9d7e-2f1c4d0b9a11',
};

/** Sent on every API answer unless the operator turned rate limiting off (then not at all). */
const RATE_LIMIT_HEADERS: Record<string, Header> = {
  'RateLimit-Policy': {
    description: 'The rate limit of the caller (IETF draft-ietf-httpapi-ratelimit-headers): quota q per window w seconds.',
    required: false,
    schema: { type: 'string' },
    example: '"default";q=100;w=1',
  },
  RateLimit: {
    description: 'Requests r left to the caller now, and t seconds until its quota is full again.',
    required: false,
    schema: { type: 'string' },
    example: '"default";r=99;t=1',
  },
};

const TEST_MODE: Header = {
  description: 'Sent as true on every answer to the test token: the body is mock data. Absent for a live key.',
  required: false,
  schema: { type: 'string', const: 'true' },
  example: 'true',
};

const RETRY_AFTER: Header = {
  description: 'Seconds to wait before the next request can pass.',
  required: true,
  schema: { type: 'integer', minimum: 1 },
  example: 1,
};

const WWW_AUTHENTICATE: Header = {
  description: 'The authentication scheme the API expects.',
  required: true,
  schema: { type: 'string', const: 'Bearer' },
  example: 'Bearer',
};

/** The 400 every dataset operation's identifiers can meet: a parameter each of them takes. */
const BAD_ISIN = "Invalid parameter 'isin': exactly 12 characters matching ^[A-Z]{2}[A-Z0-9]{9}[0-9]$.";

/** Plain-text error examples, by `{operationId} {status}` or by status alone. */
const TEXT_EXAMPLES: Record<string, string> = {
  '400':
    "Invalid parameter 'reporting_period': an integer: a year from 2020 to 2026, or an offset from -6 to -1 (-1 = most recent available period).",
  '401': 'Missing credentials: send the header "Authorization: Bearer <API key>".',
  '402': 'Insufficient credits: this call costs 25, the balance is 3.',
  '404': 'No company matches the given ticker.',
  'getProvenance 404': 'No data point has this id.',
  'getAccount 400': "Unknown parameter 'verbose'.",
  'getStatus 400': "Unknown parameter 'source'.",
  'listEvents 400': "Invalid parameter 'limit': an integer from 1 to 1000.",
  'listCompanies 400': "Unknown parameter 'page'.",
  'searchCompanies 400': "Invalid parameter 'query': text of 1 to 100 characters.",
  'getProvenance 400': "Invalid parameter 'id'.",
  'resolveCompanies 400':
    "Missing identifier in 'jobs[1]': give one of company_id, isin, lei, cik, ticker or name (mic_code alone is not enough).",
  '413': 'Request body too large.',
  '415': 'Unsupported media type: send the body as application/json.',
  '429': 'Too many requests: at most 100 per second; retry in 1 s.',
  '500': 'Internal Server Error (request 3b8f0a52-6f0e-4f57-9d7e-2f1c4d0b9a11)',
};

/**
 * The examples of the datasets' own operations: a periods list takes no reporting_period, so its
 * 400 speaks of an identifier; a history's range, a batch's jobs: each names what it takes.
 */
function datasetTextExamples(datasets: readonly Dataset[]): Record<string, string> {
  return Object.fromEntries([
    ['getFundamentals 400', `Invalid parameter 'reporting_period': ${FUNDAMENTALS_PERIOD.description ?? ''}`],
    ['getFundamentals 403', `Subscription required: ${statementNeeds(datasets)}.`],
    ...datasets.flatMap((d) => [
      [
        `${d.route.operationId} 400`,
        `Invalid parameter 'reporting_period': ${singleCallPeriod(`${d.route.path}/history`).description ?? ''}`,
      ],
      [`${d.route.periodsOperationId} 400`, BAD_ISIN],
      [`${d.route.operationId}History 400`, "Invalid parameter 'from': it must not be after to."],
      [
        `${d.route.operationId}Batch 400`,
        "Invalid field 'jobs[2].isin': exactly 12 characters matching ^[A-Z]{2}[A-Z0-9]{9}[0-9]$.",
      ],
    ]),
  ]);
}

function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** Replaces every named schema by a `$ref`, collecting it (once) into `schemas`. */
function hoist(node: unknown, schemas: Json, named: ReadonlySet<string>): unknown {
  if (Array.isArray(node)) return node.map((n) => hoist(n, schemas, named));
  if (node === null || typeof node !== 'object') return node;
  const object = node as Json;
  const out: Json = {};
  for (const [key, value] of Object.entries(object)) out[key] = hoist(value, schemas, named);
  const title = object.title;
  if (typeof title === 'string' && named.has(title)) {
    schemas[title] = out;
    return { $ref: `#/components/schemas/${title}` };
  }
  return out;
}

/** Marks the declared headers required (each route declares only what it always sends) and adds the common ones. */
function finishResponse(
  operationId: string,
  status: string,
  response: Json,
  example: unknown,
  rateLimited: boolean,
  texts: Readonly<Record<string, string>>,
  subscriptions: ReadonlyMap<string, string>,
): Json {
  const headers: Record<string, Header> = {};
  for (const [name, header] of Object.entries((response.headers ?? {}) as Record<string, Header>)) {
    headers[name] = { ...header, required: true };
  }
  headers['X-Request-Id'] = REQUEST_ID;
  headers['X-Test-Mode'] = TEST_MODE;
  if (status === '401') headers['WWW-Authenticate'] = WWW_AUTHENTICATE;
  if (status === '429') headers['Retry-After'] = RETRY_AFTER;
  for (const [name, header] of Object.entries(RATE_LIMIT_HEADERS)) headers[name] = { ...header, required: rateLimited };
  let content = response.content as Record<string, Json> | undefined;
  const text = texts[`${operationId} ${status}`] ?? texts[status];
  if (content !== undefined) {
    for (const [type, media] of Object.entries(content)) {
      const value = type === 'application/json' ? example : text;
      if (value !== undefined) media.example = value;
    }
  }
  // Every refusal also comes as problem details to a client that asks for them (Accept).
  if (Number(status) >= 400) {
    content = {
      ...(content ?? {}),
      [PROBLEM_TYPE]: {
        schema: clone(ProblemSchema),
        example: problemExample(Number(status), text, subscriptions.get(operationId)),
      },
    };
  }
  const { type: _bodyless, ...rest } = response;
  return { ...(content === undefined ? response : rest), ...(content === undefined ? {} : { content }), headers };
}

/** The subscription each operation of a dataset needs (its call, periods, history and batch). */
const subscriptionOfOperation = (datasets: readonly Dataset[]): ReadonlyMap<string, string> =>
  new Map(
    datasets.flatMap((d) =>
      [d.route.operationId, d.route.periodsOperationId, `${d.route.operationId}History`, `${d.route.operationId}Batch`].map(
        (id) => [id, d.subscription] as const,
      ),
    ),
  );

/** The problem details of an error response's example, with the members its status may carry. */
function problemExample(status: number, text: string | undefined, subscription = 'revenues'): Json {
  const extensions =
    status === 400
      ? { param: /(?:parameter|field) '([^']+)'/.exec(text ?? '')?.[1] ?? 'reporting_period' }
      : status === 403
        ? { required_subscription: subscription }
        : status === 404 && text === TEXT_EXAMPLES['404']
          ? { did_you_mean: NOT_FOUND_EXAMPLE.did_you_mean }
          : {};
  const detail =
    text ?? (status === 403 ? `Subscription required: this dataset needs the ${subscription} subscription.` : 'Error.');
  return { ...problemOf(status, detail, REQUEST_ID.example as string, extensions) };
}

const TOO_MANY = {
  description:
    'Over the rate limit of the account, which all its keys share (or, without a valid key, of the client address); nothing was charged.',
  content: { 'text/plain': { schema: { type: 'string', description: 'Plain-text explanation.' } } },
};

/**
 * The served document for a server whose public base URL is `publicUrl` (links in examples, contact)
 * and whose `servers` entry is `serverUrl`; with `rateLimited` the rate-limit headers, then sent
 * on every answer, are marked required.
 */
export function finishDocument(
  generated: object,
  datasets: readonly Dataset[],
  publicUrl: string,
  serverUrl: string,
  rateLimited: boolean,
): object {
  const texts = { ...TEXT_EXAMPLES, ...datasetTextExamples(datasets) };
  const subscriptions = subscriptionOfOperation(datasets);
  const doc = clone(generated) as Json & {
    info: Json;
    paths: Record<string, Record<string, Json>>;
    components?: Json;
  };
  const examples: Record<string, unknown> = Object.assign(
    responseExamples(publicUrl, subscriptionsOf(datasets)),
    ...datasets.map((d) => d.openApiExamples?.(publicUrl) ?? {}),
  );
  examples.getFundamentals = fundamentalsExample(datasets, examples);
  doc.info = {
    ...doc.info,
    contact: { name: 'corpdata operator', url: `${publicUrl}/` },
    license: { name: 'Proprietary: data served under the terms of each account', url: `${publicUrl}/` },
  };
  doc.servers = [{ url: serverUrl, description: 'This corpdata instance' }];
  for (const methods of Object.values(doc.paths)) {
    for (const operation of Object.values(methods)) {
      const responses: Record<string, Json> = { ...(operation.responses as Record<string, Json>), '429': clone(TOO_MANY) };
      const operationId = String(operation.operationId);
      for (const [status, response] of Object.entries(responses)) {
        responses[status] = finishResponse(
          operationId,
          status,
          response,
          examples[operationId],
          rateLimited,
          texts,
          subscriptions,
        );
      }
      operation.responses = responses;
      const body = (operation.requestBody as { content?: Record<string, Json> } | undefined)?.content?.['application/json'];
      if (body !== undefined) body.example = REQUEST_EXAMPLES[operationId.endsWith('Batch') ? 'batch' : 'resolve'];
      for (const parameter of (operation.parameters ?? []) as Json[]) {
        const example = PARAMETER_EXAMPLES[String(parameter.name)];
        if (example !== undefined) parameter.example = example;
      }
    }
  }
  const schemas: Json = {};
  doc.paths = hoist(doc.paths, schemas, namedSchemas(datasets)) as typeof doc.paths;
  doc.components = { ...(doc.components ?? {}), schemas };
  doc.info.description =
    `${String(doc.info.description ?? '')} Only GET reaches the API, except the batch and resolve operations, which take POST ` +
    'with a JSON body of up to 100 jobs: any other method gets 405 with Allow naming the one it answers.';
  return doc;
}
