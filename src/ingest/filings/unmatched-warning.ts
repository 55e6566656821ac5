import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/**
 * The warning for an ingest that read filers and matched none: it still succeeds (nothing was
 * wrong with the input), but an operator who ran it on an empty catalog must learn that nothing
 * was added and why. Undefined when some filer matched, or none was read.
 */
async function unmatchedWarning(
  db: Kysely<Database>,
  command: string,
  summary: { filers: number; companies_matched: number },
  hint: string,
): Promise<string | undefined> {
  if (summary.filers === 0 || summary.companies_matched > 0) return undefined;
  const empty = (await db.selectFrom('companies').select('company_id').limit(1).execute()).length === 0;
  const what = empty
    ? `the catalog is empty, so none of the ${summary.filers} filers was matched`
    : `none of the ${summary.filers} filers is a catalog company (all skipped as unknown_filer)`;
  return `ingest ${command}: warning: ${what} and no data point was added: ${hint}`;
}

/** Prints {@link unmatchedWarning} on stderr when there is one; the summary on stdout is unchanged. */
export async function warnIfUnmatched(
  db: Kysely<Database>,
  command: string,
  summary: { filers: number; companies_matched: number },
  hint: string,
): Promise<void> {
  const warning = await unmatchedWarning(db, command, summary, hint);
  if (warning !== undefined) process.stderr.write(`${warning}\n`);
}
