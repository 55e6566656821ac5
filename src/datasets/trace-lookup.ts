import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Dataset, TraceAccess, TracePoint } from './dataset.js';
import { hasBought } from './purchases.js';

/** A data point found by its trace id, with the dataset whose purchase shows its values. */
export interface FoundPoint {
  dataset: string;
  point: TracePoint;
}

/** Asks each dataset in turn: trace ids are the datasets' own, so none names another's point. */
export async function findTracePoint(
  datasets: readonly Dataset[],
  db: Kysely<Database>,
  id: string,
): Promise<FoundPoint | undefined> {
  const lower = id.toLowerCase();
  for (const dataset of datasets) {
    const point = await dataset.trace?.(db, lower);
    if (point !== undefined) return { dataset: dataset.name, point };
  }
  return undefined;
}

/**
 * The one visibility rule of trace pages and provenance, HTML and JSON alike: what `accountId`
 * (undefined: signed out) may see of a point. Values only for a point the API serves, once the
 * account bought its company-period in the point's own dataset.
 */
export async function accessOf(db: Kysely<Database>, found: FoundPoint, accountId: string | undefined): Promise<TraceAccess> {
  if (!found.point.served) return 'not-served';
  if (accountId === undefined) return 'signed-out';
  const { companyId, period } = found.point.subject;
  return (await hasBought(db, accountId, found.dataset, companyId, period)) ? 'bought' : 'not-bought';
}

/**
 * A data point's provenance as JSON (design §11.3) as `accountId` may see it, whatever its
 * dataset; undefined for an unknown id (or a dataset that has no JSON provenance).
 */
export async function loadProvenance(
  datasets: readonly Dataset[],
  db: Kysely<Database>,
  id: string,
  accountId: string | undefined,
  publicUrl: string,
): Promise<Record<string, unknown> | undefined> {
  const found = await findTracePoint(datasets, db, id);
  if (found?.point.provenance === undefined) return undefined;
  return found.point.provenance(await accessOf(db, found, accountId), publicUrl);
}
