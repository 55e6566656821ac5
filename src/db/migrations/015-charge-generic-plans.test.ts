import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { dialects } from '../../../test/support/dialects.js';
import { freshDatabase } from '../../../test/support/test-database.js';

describe.each(dialects().filter((d) => d === 'postgres'))('migration 015-charge-generic-plans (%s)', (dialect) => {
  const t = freshDatabase(dialect, { migrated: true });

  // A later `create or replace` of either function drops its settings unless it says them again.
  it('keeps one generic plan per statement in the billed path’s functions', async () => {
    const { rows } = await sql<{ name: string; config: string[] | null }>`
      select proname as name, proconfig as config from pg_proc where proname in ('charge_batch', 'charge_all') order by proname`.execute(
      t.db.kysely,
    );
    expect(rows).toEqual([
      { name: 'charge_all', config: ['plan_cache_mode=force_generic_plan'] },
      { name: 'charge_batch', config: ['plan_cache_mode=force_generic_plan'] },
    ]);
  });
});
