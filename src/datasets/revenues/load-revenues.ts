import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { CompanyData } from '../period-data.js';
import type { RevenueRecord } from './revenue-record.js';

/** What the revenue endpoint knows of one company: its available periods and their records. */
export type CompanyRevenues = CompanyData<RevenueRecord>;

/**
 * Reads one company's processed financial documents and data points (two indexed queries). Only a
 * financial document makes a revenue period (DESIGN §1.4): a sustainability report never does.
 */
export async function loadCompanyRevenues(db: Kysely<Database>, companyId: string, publicUrl: string): Promise<CompanyRevenues> {
  const [documents, points] = await Promise.all([
    db
      .selectFrom('documents')
      .select(['reporting_period'])
      .where('company_id', '=', companyId)
      .where('status', '=', 'processed')
      .where('kind', '=', 'financial')
      .execute(),
    db
      .selectFrom('revenue_points as p')
      .innerJoin('documents as d', 'd.document_id', 'p.document_id')
      .select([
        'p.point_id',
        'p.reporting_period',
        'p.value_usd',
        'p.original_value',
        'p.original_ccy',
        'p.document_id',
        'd.published_on',
      ])
      .where('p.company_id', '=', companyId)
      .where('d.status', '=', 'processed')
      .execute(),
  ]);
  const records = new Map<number, RevenueRecord[]>();
  for (const d of documents) if (!records.has(d.reporting_period)) records.set(d.reporting_period, []);
  for (const p of points) {
    const list = records.get(p.reporting_period) ?? [];
    list.push({
      year_of_disclosure: Number(p.published_on.slice(0, 4)),
      reporting_period: p.reporting_period,
      metric: 'Total Revenue',
      value: p.value_usd,
      ccy: 'USD',
      original_value: p.original_value,
      original_ccy: p.original_ccy,
      company_id: companyId,
      document_id: p.document_id,
      traceability_source_url: `${publicUrl}/trace/${p.point_id}`,
    });
    records.set(p.reporting_period, list);
  }
  for (const list of records.values()) {
    list.sort(
      (a, b) =>
        a.year_of_disclosure - b.year_of_disclosure ||
        (a.document_id < b.document_id ? -1 : a.document_id > b.document_id ? 1 : 0),
    );
  }
  const periods = [...records.keys()].sort((a, b) => b - a);
  return { periods, records };
}
