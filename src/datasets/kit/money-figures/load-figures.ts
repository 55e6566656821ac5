import type { Kysely } from 'kysely';
import { disclosureYear } from '../../../db/disclosure.js';
import type { Database, FigureTableName } from '../../../db/schema.js';
import { type CompanyData, companyDataOf } from '../../period-data.js';
import { type FigureRecord, figureRecord } from './figure-record.js';
import { figureTableAsP } from './figure-table.js';
import type { MoneyFigureSpec } from './money-figure-spec.js';

/**
 * The dataset's loader: one company's processed financial documents and figures (two indexed
 * queries). Only a financial document makes a period (design §1.4): a sustainability report never does.
 */
export function figureLoader<M extends string>(
  spec: MoneyFigureSpec & { metric: M },
): (db: Kysely<Database>, companyId: string, publicUrl: string) => Promise<CompanyData<FigureRecord<M>>> {
  const table = figureTableAsP(spec.table);
  return (db, companyId, publicUrl) => loadFigures(db, table, spec, companyId, publicUrl);
}

async function loadFigures<M extends string>(
  db: Kysely<Database>,
  table: `${FigureTableName} as p`,
  spec: MoneyFigureSpec & { metric: M },
  companyId: string,
  publicUrl: string,
): Promise<CompanyData<FigureRecord<M>>> {
  const [documents, points] = await Promise.all([
    db
      .selectFrom('documents')
      .select(['reporting_period'])
      .where('company_id', '=', companyId)
      .where('status', '=', 'processed')
      .where('kind', '=', 'financial')
      .execute(),
    db
      .selectFrom(table)
      .innerJoin('documents as d', 'd.document_id', 'p.document_id')
      .select([
        'p.point_id',
        'p.reporting_period',
        'p.value_usd',
        'p.original_value',
        'p.original_ccy',
        'p.document_id',
        'd.published_on',
        'd.reporting_period as document_period',
      ])
      .where('p.company_id', '=', companyId)
      .where('d.status', '=', 'processed')
      .execute(),
  ]);
  const records = new Map<number, FigureRecord<M>[]>();
  for (const d of documents) if (!records.has(d.reporting_period)) records.set(d.reporting_period, []);
  for (const p of points) {
    const list = records.get(p.reporting_period) ?? [];
    list.push(
      figureRecord(
        spec,
        {
          valueUsd: Number(p.value_usd),
          originalValue: p.original_value === null ? null : Number(p.original_value),
          originalCcy: p.original_ccy,
        },
        {
          // An undated report (ESEF without an index entry) counts to the year after the period it covers.
          year_of_disclosure: disclosureYear(p.published_on, Number(p.document_period)),
          reporting_period: p.reporting_period,
          company_id: companyId,
          document_id: p.document_id,
          traceability_source_url: `${publicUrl}/trace/${p.point_id}`,
        },
      ),
    );
    records.set(p.reporting_period, list);
  }
  for (const list of records.values()) {
    list.sort(
      (a, b) =>
        a.year_of_disclosure - b.year_of_disclosure ||
        (a.document_id < b.document_id ? -1 : a.document_id > b.document_id ? 1 : 0),
    );
  }
  return companyDataOf(records);
}
