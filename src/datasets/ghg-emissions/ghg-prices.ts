import type { DatasetPrices } from '../dataset.js';

/** As revenues (design §13.3): 25 credits a first access, 1 a repeat, 1 a 204; shared by emissions and intensity. */
export const GHG_FIRST_ACCESS_CREDITS = 25;
export const GHG_REPEAT_CREDITS = 1;
export const GHG_NO_DATA_CREDITS = 1;

export const GHG_PRICES: DatasetPrices = {
  firstAccess: GHG_FIRST_ACCESS_CREDITS,
  repeat: GHG_REPEAT_CREDITS,
  noData: GHG_NO_DATA_CREDITS,
};
