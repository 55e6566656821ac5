import type { Kysely } from 'kysely';
import type { Database, DocumentStatus } from '../../db/schema.js';

const ID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** One emission point with its company and report: what its trace page shows. */
export interface GhgTraceFacts {
  pointId: string;
  companyId: string;
  companyName: string;
  country: string | null;
  lei: string | null;
  period: number;
  scope: string;
  value: number;
  sourceValue: string;
  sourceUnit: string;
  page: string | null;
  document: {
    documentId: string;
    title: string;
    sourceUrl: string;
    /** Empty when the source gives no publication date. */
    publishedOn: string;
    /** The period the report covers (its latest). */
    reportingPeriod: number;
    status: DocumentStatus;
  };
}

/** The facts of an emission point, or undefined when the id is not one. */
export async function loadGhgFacts(db: Kysely<Database>, pointId: string): Promise<GhgTraceFacts | undefined> {
  if (!ID_RE.test(pointId)) return undefined;
  const p = await db
    .selectFrom('ghg_points as p')
    .innerJoin('companies as c', 'c.company_id', 'p.company_id')
    .innerJoin('documents as d', 'd.document_id', 'p.document_id')
    .select([
      'p.point_id',
      'p.company_id',
      'p.reporting_period',
      'p.scope',
      'p.value',
      'p.source_value',
      'p.source_unit',
      'p.page',
    ])
    .select(['c.name', 'c.country', 'c.lei', 'd.document_id', 'd.title', 'd.source_url', 'd.published_on', 'd.status'])
    .select('d.reporting_period as document_period')
    .where('p.point_id', '=', pointId)
    .executeTakeFirst();
  if (p === undefined) return undefined;
  return {
    pointId: p.point_id,
    companyId: p.company_id,
    companyName: p.name,
    country: p.country,
    lei: p.lei,
    period: p.reporting_period,
    scope: p.scope,
    value: Number(p.value),
    sourceValue: p.source_value,
    sourceUnit: p.source_unit,
    page: p.page,
    document: {
      documentId: p.document_id,
      title: p.title,
      sourceUrl: p.source_url,
      publishedOn: p.published_on,
      reportingPeriod: p.document_period,
      status: p.status,
    },
  };
}
