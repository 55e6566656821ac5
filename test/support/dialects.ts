import type { Dialect } from '../../src/db/connect.js';

/**
 * The databases every test runs against, from DIALECTS (comma-separated; default both). As in
 * Kysely's own suite, a test loops over them: nothing is skipped for a missing database.
 */
export function dialects(): Dialect[] {
  const raw = process.env.DIALECTS ?? 'sqlite,postgres';
  const list = raw
    .split(',')
    .map((d) => d.trim())
    .filter((d) => d !== '');
  for (const d of list) if (d !== 'sqlite' && d !== 'postgres') throw new Error(`DIALECTS: unknown dialect ${d}`);
  return list as Dialect[];
}
