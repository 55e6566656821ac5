/** Credit prices of the spec (§4, §8). Errors (4xx, 5xx) always cost nothing. */
export const REVENUE_FIRST_ACCESS_CREDITS = 25;
export const REVENUE_REPEAT_CREDITS = 1;
export const REVENUE_NO_DATA_CREDITS = 1;
export const SEARCH_CREDITS = 1;
export const LIST_CREDITS = 100;
/** Company resolution: per job that names a company (a job that resolves nothing costs nothing). */
export const RESOLVE_CREDITS = 1;
