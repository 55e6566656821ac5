/**
 * Credit prices of the free-standing calls (design §2); each dataset declares its own.
 * Errors (4xx, 5xx) always cost nothing.
 */
export const SEARCH_CREDITS = 1;
export const LIST_CREDITS = 100;
/** Company resolution: per job that names a company (a job that resolves nothing costs nothing). */
export const RESOLVE_CREDITS = 1;
