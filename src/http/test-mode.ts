import type { DatasetPrices } from '../datasets/dataset.js';
import { ApiError } from '../errors/api-error.js';
import { subscriptionRequired } from './company-lookup.js';

/**
 * Tickers that make the test token answer as a live key would in each case it can meet, so a
 * client's handling of every status can be tried without an account (README, "Test mode").
 * Case-insensitive; any other identifier gets mock data.
 */
export const MOCK_STATUS_TICKERS = {
  MOCK204: 204,
  MOCK402: 402,
  MOCK403: 403,
  MOCK404: 404,
} as const;

/**
 * What a test-mode call answers instead of mock records: a 204, a refusal, or nothing (records).
 * `prices` 'free': a free endpoint (a dataset's periods), which meets only the 403 and the 404.
 */
export function mockOutcome(
  ticker: string | undefined,
  subscription: string,
  prices: DatasetPrices | 'free',
): 'no-data' | ApiError | undefined {
  // Every status ticker is "MOCK" and three digits: any other ticker is not upper-cased to be looked up.
  const status =
    ticker?.length === 7 && (ticker[0] === 'M' || ticker[0] === 'm')
      ? MOCK_STATUS_TICKERS[ticker.toUpperCase() as keyof typeof MOCK_STATUS_TICKERS]
      : undefined;
  if (status === 403) return subscriptionRequired(subscription, { cost: prices === 'free' ? 0 : prices.firstAccess, balance: 0 });
  if (status === 404) {
    return new ApiError('not_found', 'No company matches the given ticker.', undefined, undefined, { did_you_mean: [] });
  }
  if (prices === 'free') return undefined;
  if (status === 204) return 'no-data';
  if (status === 402) {
    return new ApiError(
      'insufficient_credits',
      `Insufficient credits: this call costs ${prices.firstAccess}, the balance is 0.`,
      {
        cost: prices.firstAccess,
        balance: 0,
      },
    );
  }
  return undefined;
}

const MOCK_BODIES_KEPT = 10_000;

/**
 * A dataset's mock answers as JSON, made once per identifier and period: the mock is deterministic,
 * and hashing and serializing it again was most of what a test-token call cost beyond a bare route.
 * Bounded, dropped whole when full or when the public URL its links carry changes.
 */
export class MockBodies {
  /** By period, then identifier: no key string to make and hash per call. */
  #bodies = new Map<number, Map<string, string>>();
  #count = 0;
  #publicUrl: string | undefined;

  constructor(
    private readonly make: (identifier: string, period: number) => unknown[],
    private readonly publicUrl: () => string,
  ) {}

  body(identifier: string, period: number): string {
    const publicUrl = this.publicUrl();
    // The links carry the public URL: answers made for another one are dropped (it is known once
    // the app listens, before any call in service).
    if (publicUrl !== this.#publicUrl || this.#count >= MOCK_BODIES_KEPT) {
      this.#bodies = new Map();
      this.#count = 0;
      this.#publicUrl = publicUrl;
    }
    let ofPeriod = this.#bodies.get(period);
    if (ofPeriod === undefined) {
      ofPeriod = new Map();
      this.#bodies.set(period, ofPeriod);
    }
    let body = ofPeriod.get(identifier);
    if (body === undefined) {
      body = JSON.stringify(this.make(identifier, period));
      ofPeriod.set(identifier, body);
      this.#count += 1;
    }
    return body;
  }
}
