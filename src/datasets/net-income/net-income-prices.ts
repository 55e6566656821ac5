import type { DatasetPrices } from '../dataset.js';

/** Net income is priced as revenues (design §17): a first access, a repeat, a 204. */
export const NET_INCOME_FIRST_ACCESS_CREDITS = 25;
export const NET_INCOME_REPEAT_CREDITS = 1;
export const NET_INCOME_NO_DATA_CREDITS = 1;

export const NET_INCOME_PRICES: DatasetPrices = {
  firstAccess: NET_INCOME_FIRST_ACCESS_CREDITS,
  repeat: NET_INCOME_REPEAT_CREDITS,
  noData: NET_INCOME_NO_DATA_CREDITS,
};
