import type { TestProject } from 'vitest/node';
import { startThrowawayPostgres } from '../../src/scratch/throwaway-postgres.js';
import { dialects } from './dialects.js';

/**
 * Starts a throwaway PostgreSQL cluster for the run when PostgreSQL is among the dialects and no
 * server was given in CORPDATA_TEST_PG_URL.
 */
export default function setup(project: TestProject): (() => void) | undefined {
  if (!dialects().includes('postgres') || process.env.CORPDATA_TEST_PG_URL) return undefined;
  const pg = startThrowawayPostgres();
  process.env.CORPDATA_TEST_PG_URL = pg.url;
  project.provide('pgUrl', pg.url);
  return () => pg.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string;
  }
}
