import createClient from 'openapi-fetch';
import { DATASET_NAMES } from './datasets.js';
import { CorpdataError, type Credits, creditsOf } from './errors.js';
import { abortableSleep, retryingFetch } from './retry.js';
import type { components, paths } from './schema.js';

export { DATASET_NAMES } from './datasets.js';
export {
  CorpdataError,
  type CorpdataErrorInit,
  type CorpdataErrorKind,
  type Credits,
  type DidYouMean,
  type Problem,
} from './errors.js';
export { backoffDelayMs, RETRIED_STATUSES, retryAfterSeconds } from './retry.js';
export type { components, paths } from './schema.js';
export { type VerifyOptions, verifyWebhook, type WebhookMessage, WebhookVerificationError } from './webhooks.js';

export type RevenueRecord = components['schemas']['RevenueRecord'];
export type GhgEmissionRecord = components['schemas']['GhgEmissionRecord'];
export type GhgIntensityRecord = components['schemas']['GhgIntensityRecord'];
export type CompanyRecord = components['schemas']['CompanyRecord'];
export type Account = components['schemas']['Account'];
export type AvailablePeriods = components['schemas']['AvailablePeriods'];
/** The periods answer of revenues (every dataset's periods answer has this shape). */
export type RevenuePeriods = AvailablePeriods;
/** A revenue data point's provenance. */
export type Provenance = components['schemas']['Provenance'];
export type GhgEmissionProvenance = components['schemas']['GhgEmissionProvenance'];
export type GhgIntensityProvenance = components['schemas']['GhgIntensityProvenance'];
/** What `provenance(id)` answers, whatever the dataset: the union the document declares (a revenue point has no `dataset` field). */
export type AnyProvenance = paths['/api/v1/trace/{id}']['get']['responses'][200]['content']['application/json'];
export type RevenuesQuery = paths['/api/v1/revenues']['get']['parameters']['query'];
export type PeriodsQuery = NonNullable<paths['/api/v1/revenues/periods']['get']['parameters']['query']>;

/**
 * The datasets the server serves, read from the document's paths: each has `/api/v1/{name}` and
 * `/api/v1/{name}/periods`, so a dataset added to the server appears here when the schema is
 * regenerated.
 */
export type Dataset = {
  [P in keyof paths]: P extends `/api/v1/${infer N}/periods` ? (`/api/v1/${N}` extends keyof paths ? N : never) : never;
}[keyof paths];
type DatasetOperation<N extends Dataset> = paths[`/api/v1/${N}`]['get'];
/** The query of a dataset: one company identifier and a reporting period. */
export type DatasetQuery<N extends Dataset> = DatasetOperation<N>['parameters']['query'];
/** One record of a dataset's answer. */
export type DatasetRecord<N extends Dataset> = DatasetOperation<N>['responses'][200]['content']['application/json'][number];
/** A history's query: one company identifier and a range (`from`/`to` years, or `last` N periods). */
export type HistoryQuery = NonNullable<paths['/api/v1/revenues/history']['get']['parameters']['query']>;
/** A history: every available period of the range, most recent first, each with its records (none: a period without figures). */
export interface History<R> {
  company_id: string;
  periods: { reporting_period: number; records: R[] }[];
}
/** The query of the statement call: one company identifier and a reporting period. */
export type FundamentalsQuery = paths['/api/v1/fundamentals']['get']['parameters']['query'];
/**
 * The statement call's answer: the company-period and, per statement item the account may buy
 * (`revenues`, `net-income`, …), its records; an item without a figure is `[]`.
 */
export type Fundamentals = paths['/api/v1/fundamentals']['get']['responses'][200]['content']['application/json'];
/** One job of a dataset's batch: the query of the single call. */
export type BatchJob = paths['/api/v1/revenues/batch']['post']['requestBody']['content']['application/json']['jobs'][number];
/** One job's result: `status` 200 (data), 204 (no data, `data: []`) or 404 (`detail` says why). */
export interface BatchResult<R> {
  status: number;
  data?: R[];
  detail?: string;
  available_periods?: number[];
  did_you_mean?: Record<string, unknown>[];
}
/** One job of company resolution: one identifier (ticker with optional mic_code, isin, lei, cik, name, company_id). */
export type ResolveJob = paths['/api/v1/companies/resolve']['post']['requestBody']['content']['application/json']['jobs'][number];
/** One job's result: 200 with the company, or 404 with why. */
export type ResolveResult =
  paths['/api/v1/companies/resolve']['post']['responses'][200]['content']['application/json']['results'][number];

export interface CorpdataOptions {
  /** The server, e.g. https://corpdata.example.com (no trailing /api/v1). */
  baseUrl: string;
  /** An API key from the console, or the public test token. */
  apiKey: string;
  /** Retries after 429, 502, 503, 504 or a failed connection (default 3; 0: none). */
  maxRetries?: number;
  /** Longest Retry-After waited for, in seconds (default 60); a longer one fails the call at once. */
  maxWaitSeconds?: number;
  /** First backoff between retries when the server gave no Retry-After, in ms (default 500), doubled each time. */
  backoffMs?: number;
  /** Longest backoff, in ms (default 10 000). */
  maxBackoffMs?: number;
  /** Default time limit of each call in ms, retries included (default none). */
  timeout?: number;
  fetch?: (input: Request) => Promise<Response>;
}

/** What each call may add: its own time limit and a signal to cancel it. */
export interface CallOptions {
  /** Time limit of this call in ms, retries included; past it the call fails with kind `timeout`. */
  timeout?: number;
  /** Cancels the call; it then fails with kind `aborted`. */
  signal?: AbortSignal;
}

/** An answer with the credits it cost, as the server reported them. */
export interface Answer<T> {
  data: T;
  credits: Credits | undefined;
  requestId: string | null;
  /** The server had nothing to answer (204: a period without a figure); `data` is then empty. */
  noData: boolean;
  /** The answer is mock data (X-Test-Mode: true, the test token). */
  testMode: boolean;
}

type Result<T> = { data?: T; error?: unknown; response: Response };

function answerOf<T>(response: Response, data: T): Answer<T> {
  return {
    data,
    credits: creditsOf(response),
    requestId: response.headers.get('x-request-id'),
    noData: response.status === 204,
    testMode: response.headers.get('x-test-mode') === 'true',
  };
}

function unwrap<T>(result: Result<T>, empty?: NonNullable<T>): Answer<NonNullable<T>> {
  const { response } = result;
  if (!response.ok) throw CorpdataError.fromResponse(response, result.error);
  const data = result.data ?? (response.status === 204 ? empty : undefined);
  if (data === undefined || data === null) {
    throw new CorpdataError({ kind: 'unexpected', status: response.status, message: 'Empty answer.', response });
  }
  return answerOf(response, data);
}

/** The CorpdataError of a call that got no answer: the caller's signal, the time limit, or the network. */
function failure(error: unknown, signal: AbortSignal | undefined, baseUrl: string): CorpdataError {
  if (error instanceof CorpdataError) return error;
  if (signal?.aborted) {
    const reason: unknown = signal.reason;
    const timedOut = reason instanceof DOMException && reason.name === 'TimeoutError';
    return timedOut
      ? new CorpdataError({ kind: 'timeout', message: `No answer from ${baseUrl} in time.`, cause: reason })
      : new CorpdataError({ kind: 'aborted', message: 'The call was aborted.', cause: reason });
  }
  const cause = error instanceof Error ? error.cause : undefined;
  const code = typeof cause === 'object' && cause !== null && 'code' in cause ? String(cause.code) : undefined;
  const why = code ?? (error instanceof Error ? error.message : String(error));
  return new CorpdataError({ kind: 'network', message: `Could not reach ${baseUrl} (${why}).`, cause: error });
}

/** A dataset's name as a method name: `ghg-emissions` → `ghgEmissions`. */
export type CamelCase<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;

const camelCase = (name: string): string => name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** A dataset's call by name: every record of a company-period; `data: []` and `noData: true` for a 204. */
export type DatasetCall<N extends Dataset> = (
  query: DatasetQuery<N>,
  callOptions?: CallOptions,
) => Promise<Answer<DatasetRecord<N>[]>>;

/** One method per dataset of the document, named by {@link CamelCase}: `revenues`, `ghgEmissions`, … */
export type DatasetHelpers = { [N in Dataset as CamelCase<N>]: DatasetCall<N> };

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Expect<T extends true> = T;
/** Fails to compile when `datasets.ts` and `schema.d.ts` disagree: `npm run client:generate` writes both. */
export type DatasetListInSync = Expect<Same<Dataset, (typeof DATASET_NAMES)[number]>>;

/** The named calls, built from the generated list so a new dataset needs no edit here. */
function datasetHelpers(
  dataset: <N extends Dataset>(name: N, query: DatasetQuery<N>, callOptions?: CallOptions) => Promise<Answer<DatasetRecord<N>[]>>,
): DatasetHelpers {
  return Object.fromEntries(
    DATASET_NAMES.map((name) => [
      camelCase(name),
      (query: DatasetQuery<typeof name>, callOptions?: CallOptions) => dataset(name, query, callOptions),
    ]),
  ) as DatasetHelpers;
}

/**
 * The corpdata API, typed from its OpenAPI document: every method resolves with the body and the
 * credits it cost, or rejects with a {@link CorpdataError} whose `kind` says why and whose problem
 * details (asked for with every request) say how to recover.
 */
export function createCorpdataClient(options: CorpdataOptions) {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const api = createClient<paths>({
    baseUrl,
    headers: {
      authorization: `Bearer ${options.apiKey}`,
      // JSON for answers, problem details for refusals (RFC 9457).
      accept: 'application/json, application/problem+json',
    },
    fetch: retryingFetch({
      maxRetries: options.maxRetries ?? 3,
      maxWaitSeconds: options.maxWaitSeconds ?? 60,
      backoffMs: options.backoffMs ?? 500,
      maxBackoffMs: options.maxBackoffMs ?? 10_000,
      fetch: options.fetch ?? ((input) => globalThis.fetch(input)),
      sleep: abortableSleep,
    }),
  });

  /** Runs one request with the call's signal (time limit and caller's), turning failures into CorpdataErrors. */
  async function call<T>(callOptions: CallOptions | undefined, send: (init: { signal?: AbortSignal }) => Promise<T>): Promise<T> {
    const signals: AbortSignal[] = [];
    const timeout = callOptions?.timeout ?? options.timeout;
    if (timeout !== undefined) signals.push(AbortSignal.timeout(timeout));
    if (callOptions?.signal !== undefined) signals.push(callOptions.signal);
    const signal = signals.length === 0 ? undefined : signals.length === 1 ? signals[0] : AbortSignal.any(signals);
    try {
      return await send(signal === undefined ? {} : { signal });
    } catch (error) {
      throw failure(error, signal, baseUrl);
    }
  }

  async function dataset<N extends Dataset>(
    name: N,
    query: DatasetQuery<N>,
    callOptions?: CallOptions,
  ): Promise<Answer<DatasetRecord<N>[]>> {
    return call(callOptions, async (init) => {
      // Every dataset path has the same parameters; the answer type is the one of `name`.
      const result = await api.GET(`/api/v1/${name}` as '/api/v1/revenues', { params: { query }, ...init });
      return unwrap(result as Result<DatasetRecord<N>[]>, []);
    });
  }

  return {
    /** The generated openapi-fetch client, for anything the methods below do not cover. */
    api,

    /**
     * Every record of a company-period in a dataset, by the dataset's name. A 204 (a period
     * without a figure) resolves with `data: []` and `noData: true`.
     */
    dataset,

    /** One call per dataset, named after it (`ghg-emissions` → `ghgEmissions`): `dataset(name, …)` by name. */
    ...datasetHelpers(dataset),

    /**
     * Every available period of a company in a range, in one call: `{ from, to }` (years) or
     * `{ last }` (the N most recent periods), with one identifier. Billed per company-period as the
     * single calls, all or nothing (a 402 charges nothing).
     */
    history<N extends Dataset>(
      name: N,
      query: HistoryQuery,
      callOptions?: CallOptions,
    ): Promise<Answer<History<DatasetRecord<N>>>> {
      return call(callOptions, async (init) => {
        const result = await api.GET(`/api/v1/${name}/history` as '/api/v1/revenues/history', { params: { query }, ...init });
        return unwrap(result as Result<History<DatasetRecord<N>>>);
      });
    },

    /**
     * Up to 100 company-periods of a dataset in one call, one result per job in order. Billed per
     * job as the single call, all or nothing (a 402 charges nothing); a malformed job rejects the
     * whole call with a 400 whose `param` names it (`jobs[3].isin`).
     */
    batch<N extends Dataset>(
      name: N,
      jobs: BatchJob[],
      callOptions?: CallOptions,
    ): Promise<Answer<BatchResult<DatasetRecord<N>>[]>> {
      return call(callOptions, async (init) => {
        const result = await api.POST(`/api/v1/${name}/batch` as '/api/v1/revenues/batch', { body: { jobs }, ...init });
        const answer = unwrap(result as Result<{ results: BatchResult<DatasetRecord<N>>[] }>);
        return { ...answer, data: answer.data.results };
      });
    },

    /**
     * Every statement item of a company-period the account may buy (revenues, net income, …) in
     * one call, each as its single call answers it (`[]` without a figure). Billed as a batch of
     * those single calls, all or nothing (a 402 charges nothing); `credits.cost` is the sum.
     */
    fundamentals(query: FundamentalsQuery, callOptions?: CallOptions): Promise<Answer<Fundamentals>> {
      return call(callOptions, async (init) => unwrap(await api.GET('/api/v1/fundamentals', { params: { query }, ...init })));
    },

    /** Up to 100 identifiers to company records, one result per job in order; 1 credit per job that resolves. */
    resolve(jobs: ResolveJob[], callOptions?: CallOptions): Promise<Answer<ResolveResult[]>> {
      return call(callOptions, async (init) => {
        const answer = unwrap(await api.POST('/api/v1/companies/resolve', { body: { jobs }, ...init }));
        return { ...answer, data: answer.data.results };
      });
    },

    /** The periods a company has data for in a dataset (revenues by default), most recent first (free). */
    periods(query: PeriodsQuery, name: Dataset = 'revenues', callOptions?: CallOptions): Promise<Answer<AvailablePeriods>> {
      return call(callOptions, async (init) =>
        unwrap(await api.GET(`/api/v1/${name}/periods` as '/api/v1/revenues/periods', { params: { query }, ...init })),
      );
    },

    searchCompanies(query: string, callOptions?: CallOptions): Promise<Answer<CompanyRecord[]>> {
      return call(callOptions, async (init) =>
        unwrap(await api.GET('/api/v1/companies/search', { params: { query: { query } }, ...init })),
      );
    },

    /**
     * Every company. Give the ETag of the last answer to pay only when the catalog changed:
     * `data` is then null (304, free).
     */
    listCompanies(
      ifNoneMatch?: string,
      callOptions?: CallOptions,
    ): Promise<Answer<CompanyRecord[] | null> & { etag: string | null }> {
      return call(callOptions, async (init) => {
        const result = await api.GET('/api/v1/companies/list', {
          ...(ifNoneMatch === undefined ? {} : { headers: { 'if-none-match': ifNoneMatch } }),
          ...init,
        });
        const etag = result.response.headers.get('etag');
        if (result.response.status === 304) return { ...answerOf(result.response, null), etag };
        return { ...unwrap(result), etag };
      });
    },

    /** The calling key's account: balance and subscription (free). */
    account(callOptions?: CallOptions): Promise<Answer<Account>> {
      return call(callOptions, async (init) => unwrap(await api.GET('/api/v1/account', init)));
    },

    /**
     * Where a data point of any dataset comes from; `values` only if the account bought its
     * company-period in that dataset (free).
     */
    provenance(id: string, callOptions?: CallOptions): Promise<Answer<AnyProvenance>> {
      return call(callOptions, async (init) =>
        unwrap(await api.GET('/api/v1/trace/{id}', { params: { path: { id } }, ...init })),
      );
    },
  };
}

export type CorpdataClient = ReturnType<typeof createCorpdataClient>;
