import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connect.js';

/** The argument types of `charge_batch` and `charge_all` (migration 009-ledger-detail). */
const ARGUMENTS =
  'text[], text[], text[], bigint[], text[], text[], integer[], bigint[], text[], integer[], text[], text[], boolean[], integer[], integer[], text[], text[]';

/**
 * PostgreSQL: the billed path's functions keep one generic plan per statement. Their statements
 * read the batch's arrays; with the default plan cache mode the server planned the ledger's insert
 * anew for every batch, the arrays written into the plan as constants, because a plan made for
 * those values looked no dearer than the generic one. Measured on a throwaway server, a batch of
 * ten calls spent 0.33–0.36 ms in `charge_batch` before and 0.21–0.23 ms after; one account's
 * batches run one after the other, so that time bounds its charges a second. Every statement of
 * both functions finds its rows by key: the generic plan is the one any values would get
 * (docs/search-and-hot-path.md, eighth round).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  for (const name of ['charge_batch', 'charge_all'])
    await sql.raw(`alter function ${name}(${ARGUMENTS}) set plan_cache_mode = force_generic_plan`).execute(db);
}
