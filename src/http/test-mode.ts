import type { DatasetPrices } from '../datasets/dataset.js';
import { subscriptionRequired } from './company-lookup.js';
import { ApiError } from './errors.js';

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

/** What a test-mode call answers instead of mock records: a 204, a refusal, or nothing (records). */
export function mockOutcome(
  ticker: string | undefined,
  subscription: string,
  prices: DatasetPrices,
): 'no-data' | ApiError | undefined {
  const status = ticker === undefined ? undefined : MOCK_STATUS_TICKERS[ticker.toUpperCase() as keyof typeof MOCK_STATUS_TICKERS];
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
  if (status === 403) return subscriptionRequired(subscription, { cost: prices.firstAccess, balance: 0 });
  if (status === 404) {
    return new ApiError('not_found', 'No company matches the given ticker.', undefined, undefined, { did_you_mean: [] });
  }
  return undefined;
}
