import type { DatasetPrices } from '../dataset.js';

/** Every line item is priced as revenues (design §18): a first access, a repeat, a 204. */
export const LINE_ITEM_FIRST_ACCESS_CREDITS = 25;
export const LINE_ITEM_REPEAT_CREDITS = 1;
export const LINE_ITEM_NO_DATA_CREDITS = 1;

export const LINE_ITEM_PRICES: DatasetPrices = {
  firstAccess: LINE_ITEM_FIRST_ACCESS_CREDITS,
  repeat: LINE_ITEM_REPEAT_CREDITS,
  noData: LINE_ITEM_NO_DATA_CREDITS,
};
