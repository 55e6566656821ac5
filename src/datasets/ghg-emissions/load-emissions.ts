import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { type CompanyData, companyDataOf } from '../period-data.js';
import { disclosureYear, type GhgEmissionRecord, scopeRank } from './ghg-record.js';

/**
 * One company's emission figures from processed documents. A period is available when a processed
 * sustainability report of the company reports on it, or when a processed document holds an
 * emission figure for it (design §1.4); a financial report makes no emission period.
 */
export async function loadCompanyEmissions(
  db: Kysely<Database>,
  companyId: string,
  publicUrl: string,
): Promise<CompanyData<GhgEmissionRecord>> {
  const [reports, points] = await Promise.all([
    db
      .selectFrom('documents')
      .select(['reporting_period'])
      .where('company_id', '=', companyId)
      .where('status', '=', 'processed')
      .where('kind', '=', 'sustainability')
      .execute(),
    db
      .selectFrom('ghg_points as p')
      .innerJoin('documents as d', 'd.document_id', 'p.document_id')
      .select(['p.point_id', 'p.reporting_period', 'p.scope', 'p.value', 'p.document_id', 'd.published_on'])
      .select('d.reporting_period as document_period')
      .where('p.company_id', '=', companyId)
      .where('d.status', '=', 'processed')
      .execute(),
  ]);
  const records = new Map<number, GhgEmissionRecord[]>();
  for (const d of reports) if (!records.has(d.reporting_period)) records.set(d.reporting_period, []);
  for (const p of points) {
    const list = records.get(p.reporting_period) ?? [];
    list.push({
      year_of_disclosure: disclosureYear(p.published_on, p.document_period),
      reporting_period: p.reporting_period,
      scope: p.scope,
      value: Number(p.value),
      unit: 'tCO2e',
      company_id: companyId,
      document_id: p.document_id,
      traceability_source_url: `${publicUrl}/trace/${p.point_id}`,
    });
    records.set(p.reporting_period, list);
  }
  for (const list of records.values()) {
    list.sort(
      (a, b) =>
        scopeRank(a.scope) - scopeRank(b.scope) ||
        a.year_of_disclosure - b.year_of_disclosure ||
        (a.document_id < b.document_id ? -1 : a.document_id > b.document_id ? 1 : 0),
    );
  }
  return companyDataOf(records);
}
