import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** True when the account bought the company-period in this dataset (keyed as billing keys it). */
export async function hasBought(
  db: Kysely<Database>,
  accountId: string,
  dataset: string,
  companyId: string,
  period: number,
): Promise<boolean> {
  const row = await db
    .selectFrom('purchases')
    .select('company_id')
    .where('account_id', '=', accountId)
    .where('dataset', '=', dataset)
    .where('company_id', '=', companyId)
    .where('reporting_period', '=', period)
    .executeTakeFirst();
  return row !== undefined;
}
