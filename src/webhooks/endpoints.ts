import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, WebhookEndpointTable } from '../db/schema.js';
import { newSecret, type SecretBox } from './signing.js';

/** Endpoints one account may hold (design §20.5). */
export const ENDPOINTS_PER_ACCOUNT = 10;

/** An endpoint as its account sees it: never its secret, which is shown once, at creation. */
export interface Endpoint {
  id: string;
  url: string;
  eventTypes: string[];
  companyIds: string[] | null;
  datasets: string[] | null;
  status: string;
  createdAt: string;
}

const list = (s: string | null): string[] | null => (s === null ? null : s.split(',').filter((x) => x !== ''));

export function endpointOf(
  r: Pick<WebhookEndpointTable, 'endpoint_id' | 'url' | 'event_types' | 'company_ids' | 'datasets' | 'status' | 'created_at'>,
): Endpoint {
  return {
    id: r.endpoint_id,
    url: r.url,
    eventTypes: list(r.event_types) ?? [],
    companyIds: list(r.company_ids),
    datasets: list(r.datasets),
    status: r.status,
    createdAt: r.created_at,
  };
}

export interface NewEndpoint {
  accountId: string;
  url: string;
  eventTypes: readonly string[];
  companyIds: readonly string[] | null;
  datasets: readonly string[] | null;
  now: Date;
}

/** The refusal of an eleventh endpoint. */
export class TooManyEndpointsError extends Error {}

/**
 * Registers an endpoint with a new secret, returned once beside it. Deliveries start from the
 * events written after it: an endpoint is not sent the past (the events feed holds it). The count
 * is checked in the transaction that inserts, so two concurrent registrations cannot make eleven.
 */
export async function createEndpoint(
  db: Kysely<Database>,
  box: SecretBox,
  input: NewEndpoint,
): Promise<{ endpoint: Endpoint; secret: string }> {
  const secret = newSecret();
  return db.transaction().execute(async (trx) => {
    // Serializes an account's registrations (on PostgreSQL a row lock; SQLite has one writer).
    await trx.updateTable('accounts').set({ account_id: input.accountId }).where('account_id', '=', input.accountId).execute();
    const held = await trx
      .selectFrom('webhook_endpoints')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', input.accountId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (Number(held?.n ?? 0) >= ENDPOINTS_PER_ACCOUNT) throw new TooManyEndpointsError();
    const last = await trx
      .selectFrom('events')
      .select((eb) => eb.fn.max('event_id').as('m'))
      .executeTakeFirst();
    const row = {
      endpoint_id: randomUUID(),
      account_id: input.accountId,
      url: input.url,
      event_types: input.eventTypes.join(','),
      company_ids: input.companyIds === null ? null : input.companyIds.join(','),
      datasets: input.datasets === null ? null : input.datasets.join(','),
      secret: box.seal(secret),
      status: 'active',
      last_event_id: Number(last?.m ?? 0),
      created_at: input.now.toISOString(),
      deleted_at: null,
    };
    await trx.insertInto('webhook_endpoints').values(row).execute();
    return { endpoint: endpointOf(row), secret };
  });
}

export async function listEndpoints(db: Kysely<Database>, accountId: string): Promise<Endpoint[]> {
  const rows = await db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .orderBy('endpoint_id')
    .execute();
  return rows.map(endpointOf);
}

/** The account's live endpoint of this id, or undefined. */
export async function findEndpoint(db: Kysely<Database>, accountId: string, id: string): Promise<Endpoint | undefined> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('endpoint_id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row === undefined ? undefined : endpointOf(row);
}

/** Deletes an endpoint: nothing more is delivered to it; its log stays. False when it was not the account's. */
export async function deleteEndpoint(db: Kysely<Database>, accountId: string, id: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('webhook_endpoints')
    .set({ deleted_at: now.toISOString() })
    .where('account_id', '=', accountId)
    .where('endpoint_id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** A delivery and its tries, newest first, as the log shows them. */
export interface DeliveryLog {
  id: number;
  eventId: number;
  status: string;
  tries: number;
  nextTryAt: string | null;
  createdAt: string;
  attempts: Array<{ at: string; responseStatus: number | null; latencyMs: number; error: string | null }>;
}

export async function listDeliveries(db: Kysely<Database>, endpointId: string, limit: number): Promise<DeliveryLog[]> {
  const rows = await db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('endpoint_id', '=', endpointId)
    .orderBy('delivery_id', 'desc')
    .limit(limit)
    .execute();
  if (rows.length === 0) return [];
  const attempts = await db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where(
      'delivery_id',
      'in',
      rows.map((r) => Number(r.delivery_id)),
    )
    .orderBy('attempt_id')
    .execute();
  return rows.map((r) => ({
    id: Number(r.delivery_id),
    eventId: Number(r.event_id),
    status: r.status,
    tries: Number(r.tries),
    nextTryAt: r.status === 'pending' ? r.next_try_at : null,
    createdAt: r.created_at,
    attempts: attempts
      .filter((a) => Number(a.delivery_id) === Number(r.delivery_id))
      .map((a) => ({
        at: a.attempted_at,
        responseStatus: a.response_status === null ? null : Number(a.response_status),
        latencyMs: Number(a.latency_ms),
        error: a.error,
      })),
  }));
}

/**
 * Sends a delivery again (design §20.4): it is due at once with its tries counted afresh, and a
 * failing endpoint is active again. False when the delivery is not the endpoint's.
 */
export async function redeliver(db: Kysely<Database>, endpointId: string, deliveryId: number, now: Date): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('webhook_deliveries')
      .set({ status: 'pending', tries: 0, next_try_at: now.toISOString(), leased_until: null })
      .where('endpoint_id', '=', endpointId)
      .where('delivery_id', '=', deliveryId)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return false;
    await trx.updateTable('webhook_endpoints').set({ status: 'active' }).where('endpoint_id', '=', endpointId).execute();
    return true;
  });
}
