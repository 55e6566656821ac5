import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { EventType } from './event-types.js';

/** One event as stored: `points_table` is the dataset's table of points, which the reader names. */
export interface StoredEvent {
  id: number;
  type: string;
  occurredAt: string;
  companyId: string | null;
  pointsTable: string | null;
  reportingPeriod: number | null;
  documentId: string | null;
  pointId: string | null;
  mergedCompanyId: string | null;
}

export interface EventFilter {
  /** Events after this id only (the cursor); 0 from the oldest kept. */
  after: number;
  limit: number;
  type?: EventType;
  companyId?: string;
  /** Only figure events of these tables of points (a dataset's). */
  pointsTables?: readonly string[];
}

/** A page of events in id order (design §20.3): the order they were written in. */
export async function listEvents(db: Kysely<Database>, filter: EventFilter): Promise<StoredEvent[]> {
  let q = db.selectFrom('events').selectAll().where('event_id', '>', filter.after).orderBy('event_id').limit(filter.limit);
  if (filter.type !== undefined) q = q.where('type', '=', filter.type);
  const companyId = filter.companyId;
  // A company's merge is its event under either id: the one it keeps and the one it lost.
  if (companyId !== undefined)
    q = q.where((e) => e.or([e('company_id', '=', companyId), e('merged_company_id', '=', companyId)]));
  if (filter.pointsTables !== undefined) {
    const tables = filter.pointsTables;
    if (tables.length === 0) return [];
    q = q.where('points_table', 'in', tables);
  }
  const rows = await q.execute();
  return rows.map((r) => ({
    id: Number(r.event_id),
    type: r.type,
    occurredAt: r.occurred_at,
    companyId: r.company_id,
    pointsTable: r.points_table,
    reportingPeriod: r.reporting_period === null ? null : Number(r.reporting_period),
    documentId: r.document_id,
    pointId: r.point_id,
    mergedCompanyId: r.merged_company_id,
  }));
}

/** Drops events older than `days` before `now`; returns how many. */
export async function pruneEvents(db: Kysely<Database>, now: Date, days: number): Promise<number> {
  const cutoff = new Date(now.getTime() - days * 86_400_000).toISOString();
  const result = await db.deleteFrom('events').where('occurred_at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
