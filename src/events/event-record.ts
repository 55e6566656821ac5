import type { StoredEvent } from './event-feed.js';

/** An event as the API and webhooks show it (design §20.3): what changed and where, never a value. */
export interface EventRecord {
  id: number;
  type: string;
  occurred_at: string;
  company_id: string | null;
  dataset: string | null;
  reporting_period: number | null;
  document_id: string | null;
  point_id: string | null;
  merged_company_id: string | null;
}

/** A stored event as shown, its table of points named by its dataset (`byTable`: table → dataset name). */
export function eventRecord(e: StoredEvent, byTable: ReadonlyMap<string, string>): EventRecord {
  return {
    id: e.id,
    type: e.type,
    occurred_at: e.occurredAt,
    company_id: e.companyId,
    dataset: e.pointsTable === null ? null : (byTable.get(e.pointsTable) ?? null),
    reporting_period: e.reportingPeriod,
    document_id: e.documentId,
    point_id: e.pointId,
    merged_company_id: e.mergedCompanyId,
  };
}

/** The dataset names of tables of points, and back, for the datasets a process serves (structurally: name, pointsTable). */
export function datasetTables(datasets: ReadonlyArray<{ readonly name: string; readonly pointsTable?: string }>): {
  byTable: Map<string, string>;
  byName: Map<string, string>;
} {
  const pairs = datasets.flatMap((d) => (d.pointsTable === undefined ? [] : [[d.name, d.pointsTable] as const]));
  return { byName: new Map(pairs), byTable: new Map(pairs.map(([n, t]) => [t, n])) };
}
