/** Credit prices of the spec (§4, §8). Errors (4xx, 5xx) always cost nothing. */
export const REVENUE_FIRST_ACCESS_CREDITS = 25;
export const REVENUE_REPEAT_CREDITS = 1;
export const REVENUE_NO_DATA_CREDITS = 1;
export const SEARCH_CREDITS = 1;
export const LIST_CREDITS = 100;
