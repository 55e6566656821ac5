/** Ids and facts of the fixture bundle in test/fixtures/bundle, named for the tests that use them. */
export const ALPHA = {
  id: '00000000-0000-4000-8000-000000000001',
  lei: '5299000ALPHA0000AB44',
  isin: 'DE000ALPH005',
  secondaryIsin: 'GB000ALPH005',
};
export const BETA = { id: '00000000-0000-4000-8000-000000000002', lei: '5493000BETA00000CD94', isin: 'US000BETA008' };
export const GAMMA = { id: '00000000-0000-4000-8000-000000000003' };
export const DELTA = { id: '00000000-0000-4000-8000-000000000004' };
export const EPSILON = { id: '00000000-0000-4000-8000-000000000005' };
export const ZETA = { id: '00000000-0000-4000-8000-000000000006' };
export const TWIN_ONE = { id: '00000000-0000-4000-8000-000000000007' };
export const TWIN_TWO = { id: '00000000-0000-4000-8000-000000000008' };
export const QUIET = { id: '00000000-0000-4000-8000-000000000009' };
export const doc = (n: number) => `10000000-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`;
/** The GHG fixture (test/fixtures/ghg-bundle), imported on top of the main one. */
export const ghgDoc = (n: number) => `20000000-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`;

/** The explorer fixture (test/fixtures/explorer-bundle): Apple Inc.'s real figures, and two namesakes. */
export const APPLE = { id: '30000000-0000-4000-8000-000000000001', fy2024Revenue: 391_035_000_000 };
