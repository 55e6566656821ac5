/**
 * Moved to `src/money/` (USD normalization is shared by every money dataset); this re-export
 * serves the SEC ingest and the demo until their imports follow.
 */
export * from '../money/normalize.js';
