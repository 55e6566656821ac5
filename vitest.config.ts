import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // A guard against a hang, not a measure: two test files share the two cores in CI.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
