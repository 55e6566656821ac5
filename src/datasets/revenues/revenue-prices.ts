import type { DatasetPrices } from '../dataset.js';

/** Credit prices (design §2): a 200 bought for the first time, a repeat, a 204. */
export const REVENUE_FIRST_ACCESS_CREDITS = 25;
export const REVENUE_REPEAT_CREDITS = 1;
export const REVENUE_NO_DATA_CREDITS = 1;

export const REVENUE_PRICES: DatasetPrices = {
  firstAccess: REVENUE_FIRST_ACCESS_CREDITS,
  repeat: REVENUE_REPEAT_CREDITS,
  noData: REVENUE_NO_DATA_CREDITS,
};
