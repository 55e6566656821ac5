import createClient from 'openapi-fetch';
import { CorpdataError, type Credits, creditsOf } from './errors.js';
import { retryingFetch } from './retry.js';
import type { components, paths } from './schema.js';

export { CorpdataError, type CorpdataErrorKind, type Credits } from './errors.js';
export { retryAfterSeconds } from './retry.js';
export type { components, paths } from './schema.js';

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
/** What `provenance(id)` answers: a revenue point has no `dataset` field, the GHG ones name theirs. */
export type AnyProvenance = Provenance | GhgEmissionProvenance | GhgIntensityProvenance;
export type RevenuesQuery = paths['/api/v1/revenues']['get']['parameters']['query'];
export type PeriodsQuery = NonNullable<paths['/api/v1/revenues/periods']['get']['parameters']['query']>;
/** The datasets whose periods a client may ask for (each at `{dataset}/periods`). */
export type Dataset = 'revenues' | 'ghg-emissions' | 'ghg-intensity';

export interface CorpdataOptions {
  /** The server, e.g. https://corpdata.example.com (no trailing /api/v1). */
  baseUrl: string;
  /** An API key from the console, or the public test token. */
  apiKey: string;
  /** Retries after 429 or 503, honouring Retry-After (default 3; 0: none). */
  maxRetries?: number;
  /** Longest Retry-After waited for, in seconds (default 60). */
  maxWaitSeconds?: number;
  fetch?: (input: Request) => Promise<Response>;
}

/** An answer with the credits it cost, as the server reported them. */
export interface Answer<T> {
  data: T;
  credits: Credits | undefined;
  requestId: string | null;
}

type Result<T> = { data?: T; error?: unknown; response: Response };

function unwrap<T>(result: Result<T>, empty?: NonNullable<T>): Answer<NonNullable<T>> {
  const { response } = result;
  if (!response.ok) {
    throw new CorpdataError(response.status, typeof result.error === 'string' ? result.error : '', response);
  }
  const data = result.data ?? empty;
  if (data === undefined || data === null) throw new CorpdataError(response.status, 'Empty answer.', response);
  return { data, credits: creditsOf(response), requestId: response.headers.get('x-request-id') };
}

/**
 * The corpdata API, typed from its OpenAPI document: every method resolves with the body and the
 * credits it cost, or rejects with a {@link CorpdataError} whose `kind` says why.
 */
export function createCorpdataClient(options: CorpdataOptions) {
  const api = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { authorization: `Bearer ${options.apiKey}` },
    fetch: retryingFetch({
      maxRetries: options.maxRetries ?? 3,
      maxWaitSeconds: options.maxWaitSeconds ?? 60,
      fetch: options.fetch ?? ((input) => globalThis.fetch(input)),
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    }),
  });

  return {
    /** The generated openapi-fetch client, for anything the methods below do not cover. */
    api,

    /** Every revenue data point of a company-period; an empty array for a 204 (a period without a figure). */
    async revenues(query: RevenuesQuery): Promise<Answer<RevenueRecord[]>> {
      return unwrap(await api.GET('/api/v1/revenues', { params: { query } }), []);
    },

    /** Every emission figure (Scope 1, 2, 3 in tCO2e) of a company-period; an empty array for a 204. */
    async ghgEmissions(query: RevenuesQuery): Promise<Answer<GhgEmissionRecord[]>> {
      return unwrap(await api.GET('/api/v1/ghg-emissions', { params: { query } }), []);
    },

    /** Emissions per USD million of revenue, per scope, of a company-period; an empty array for a 204. */
    async ghgIntensity(query: RevenuesQuery): Promise<Answer<GhgIntensityRecord[]>> {
      return unwrap(await api.GET('/api/v1/ghg-intensity', { params: { query } }), []);
    },

    /** The periods a company has data for in a dataset (revenues by default), most recent first (free). */
    async periods(query: PeriodsQuery, dataset: Dataset = 'revenues'): Promise<Answer<AvailablePeriods>> {
      const options = { params: { query } };
      if (dataset === 'ghg-emissions') return unwrap(await api.GET('/api/v1/ghg-emissions/periods', options));
      if (dataset === 'ghg-intensity') return unwrap(await api.GET('/api/v1/ghg-intensity/periods', options));
      return unwrap(await api.GET('/api/v1/revenues/periods', options));
    },

    async searchCompanies(query: string): Promise<Answer<CompanyRecord[]>> {
      return unwrap(await api.GET('/api/v1/companies/search', { params: { query: { query } } }));
    },

    /**
     * Every company. Give the ETag of the last answer to pay only when the catalog changed:
     * `data` is then null (304, free).
     */
    async listCompanies(ifNoneMatch?: string): Promise<Answer<CompanyRecord[] | null> & { etag: string | null }> {
      const result = await api.GET('/api/v1/companies/list', {
        ...(ifNoneMatch === undefined ? {} : { headers: { 'if-none-match': ifNoneMatch } }),
      });
      const etag = result.response.headers.get('etag');
      if (result.response.status === 304) {
        return { data: null, credits: creditsOf(result.response), requestId: result.response.headers.get('x-request-id'), etag };
      }
      return { ...unwrap(result), etag };
    },

    /** The calling key's account: balance and subscription (free). */
    async account(): Promise<Answer<Account>> {
      return unwrap(await api.GET('/api/v1/account'));
    },

    /**
     * Where a data point of any dataset comes from; `values` only if the account bought its
     * company-period in that dataset (free).
     */
    async provenance(id: string): Promise<Answer<AnyProvenance>> {
      return unwrap(await api.GET('/api/v1/trace/{id}', { params: { path: { id } } }));
    },
  };
}

export type CorpdataClient = ReturnType<typeof createCorpdataClient>;
