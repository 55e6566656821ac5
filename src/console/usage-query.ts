import { type Kysely, sql } from 'kysely';
import type { Database, LedgerKind } from '../db/schema.js';

export const LEDGER_PAGE_SIZE = 50;
export const CHART_DAYS = 30;

export interface LedgerLine {
  entryId: number;
  at: string;
  kind: LedgerKind;
  amount: number;
  balanceAfter: number;
  endpoint: string | null;
  keyName: string | null;
  companyName: string | null;
  reportingPeriod: number | null;
  /** What the charge was for beyond endpoint and company-period (a company search's query), when kept. */
  detail: string | null;
  /** True when the account holds the purchase this line names (its endpoint's dataset, company and period). */
  bought: boolean;
}

export interface Purchase {
  companyId: string;
  companyName: string;
  ticker: string | null;
  micCode: string | null;
  period: number;
  /** The dataset it was bought in (one company-period may be bought in several). */
  dataset: string;
  boughtAt: string;
}

export async function balanceOf(db: Kysely<Database>, accountId: string): Promise<number> {
  const row = await db.selectFrom('accounts').select('balance').where('account_id', '=', accountId).executeTakeFirst();
  return Number(row?.balance ?? 0);
}

/** One page (1-based) of the account's ledger, newest first, optionally one key's entries only. */
export async function ledgerPage(
  db: Kysely<Database>,
  accountId: string,
  filter: { keyId: string | undefined; page: number },
): Promise<{ lines: LedgerLine[]; hasNext: boolean }> {
  let q = db
    .selectFrom('ledger as l')
    .leftJoin('api_keys as k', 'k.key_id', 'l.key_id')
    .leftJoin('companies as c', 'c.company_id', 'l.company_id')
    .leftJoin('purchases as p', (join) =>
      join
        .onRef('p.account_id', '=', 'l.account_id')
        .onRef('p.dataset', '=', 'l.endpoint')
        .onRef('p.company_id', '=', 'l.company_id')
        .onRef('p.reporting_period', '=', 'l.reporting_period'),
    )
    .select([
      'l.entry_id',
      'l.created_at',
      'l.kind',
      'l.amount',
      'l.balance_after',
      'l.endpoint',
      'k.name as key_name',
      'c.name as company_name',
      'l.reporting_period',
      'l.detail',
      'p.company_id as bought_company',
    ])
    .where('l.account_id', '=', accountId);
  if (filter.keyId !== undefined) q = q.where('l.key_id', '=', filter.keyId);
  const rows = await q
    .orderBy('l.entry_id', 'desc')
    .limit(LEDGER_PAGE_SIZE + 1)
    .offset((filter.page - 1) * LEDGER_PAGE_SIZE)
    .execute();
  const lines = rows.slice(0, LEDGER_PAGE_SIZE).map((r) => ({
    entryId: Number(r.entry_id),
    at: r.created_at,
    kind: r.kind,
    amount: Number(r.amount),
    balanceAfter: Number(r.balance_after),
    endpoint: r.endpoint,
    keyName: r.key_name,
    companyName: r.company_name,
    reportingPeriod: r.reporting_period,
    detail: r.detail,
    bought: r.bought_company !== null,
  }));
  return { lines, hasNext: rows.length > LEDGER_PAGE_SIZE };
}

/** The UTC days `2025-01-01` … of the last `days` days, ending today. */
export function lastDays(now: Date, days: number): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: days }, (_, i) => new Date(today - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10));
}

/** Credits spent per UTC day over the last {@link CHART_DAYS} days, every day present (0 when idle). */
export async function dailySpend(
  db: Kysely<Database>,
  accountId: string,
  keyId: string | undefined,
  now: Date,
): Promise<Array<{ day: string; credits: number }>> {
  const days = lastDays(now, CHART_DAYS);
  const day = sql<string>`substr(created_at, 1, 10)`;
  let q = db
    .selectFrom('ledger')
    .select([day.as('day'), (eb) => eb.fn.sum<string | number>('amount').as('total')])
    .where('account_id', '=', accountId)
    .where('kind', '=', 'charge')
    .where('created_at', '>=', `${days[0]}T00:00:00.000Z`);
  if (keyId !== undefined) q = q.where('key_id', '=', keyId);
  const rows = await q.groupBy(day).execute();
  // Charges are negative amounts; PostgreSQL sums BIGINT into NUMERIC, which arrives as a string.
  const spent = new Map(rows.map((r) => [r.day, -Number(r.total)]));
  return days.map((d) => ({ day: d, credits: spent.get(d) ?? 0 }));
}

/** Company-periods the account has bought (repeat calls for them cost 1), newest first. */
export async function purchases(db: Kysely<Database>, accountId: string): Promise<Purchase[]> {
  const rows = await db
    .selectFrom('purchases as p')
    .innerJoin('companies as c', 'c.company_id', 'p.company_id')
    .leftJoin('listings as l', (join) => join.onRef('l.company_id', '=', 'p.company_id').on('l.is_primary', '=', 1))
    .select(['p.company_id', 'c.name', 'l.ticker', 'l.mic_code', 'p.reporting_period', 'p.dataset', 'p.created_at'])
    .where('p.account_id', '=', accountId)
    .orderBy('p.created_at', 'desc')
    .orderBy('c.name')
    .orderBy('p.reporting_period', 'desc')
    .orderBy('p.dataset')
    .execute();
  return rows.map((r) => ({
    companyId: r.company_id,
    companyName: r.name,
    ticker: r.ticker,
    micCode: r.mic_code,
    period: r.reporting_period,
    dataset: r.dataset,
    boughtAt: r.created_at,
  }));
}
