import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** The longest error message kept of a poll: the first line of what went wrong, not a dump. */
const MAX_ERROR_CHARS = 500;

/**
 * Records how a poll of `source` (one `sync`, design §20.2) ended at `at`: a success, or the error
 * that ended it (its first line, cut to {@link MAX_ERROR_CHARS}). The other outcome's record stays.
 */
export async function recordPoll(db: Kysely<Database>, source: string, at: Date, error: string | null): Promise<void> {
  const when = at.toISOString();
  const row =
    error === null
      ? { last_success_at: when }
      : { last_error_at: when, last_error: (error.split('\n')[0] ?? '').slice(0, MAX_ERROR_CHARS) };
  await db
    .insertInto('source_polls')
    .values({ source, last_success_at: null, last_error_at: null, last_error: null, ...row })
    .onConflict((oc) => oc.column('source').doUpdateSet(row))
    .execute();
}
