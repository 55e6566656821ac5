import { configDefaults, defineConfig } from 'vitest/config';
import { dialects } from './test/support/dialects.js';

/** Test files of PostgreSQL's own parts only (its charge function and migrations): nothing to run without it. */
const POSTGRES_ONLY = [
  'src/credits/charge-function.test.ts',
  'src/db/migrations/015-charge-generic-plans.test.ts',
  'src/db/migrations/017-charge-one-debit.test.ts',
];

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...(dialects().includes('postgres') ? [] : POSTGRES_ONLY)],
    globalSetup: ['test/support/global-setup.ts'],
    // A guard against a hang, not a measure: two test files share the two cores in CI.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
