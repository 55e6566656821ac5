import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { type Kysely, sql } from 'kysely';
import type { WebhookConfig } from '../config.js';
import type { Dialect } from '../db/connect.js';
import type { Database } from '../db/schema.js';
import { listEvents } from '../events/event-feed.js';
import { eventRecord } from '../events/event-record.js';
import { AllowList, hostOf, resolveSafely, safeLookup } from './endpoint-safety.js';
import { type SecretBox, signature } from './signing.js';

/** The most of a response body read (design §20.5): the rest is not awaited. */
export const MAX_RESPONSE_BYTES = 64 * 1024;
/** The longest wait between two tries (design §20.4). */
const MAX_DELAY_MS = 10 * 3600 * 1000;
/** Events turned into deliveries per endpoint per round, deliveries claimed per round. */
const FAN_OUT = 500;
const CLAIM = 20;

/** What one try got: the status of an answer, or why there was none. */
export interface TryResult {
  status: number | null;
  error: string | null;
  latencyMs: number;
}

/**
 * Posts a signed body to an endpoint once (design §20.4, §20.5): the address is checked when it
 * is connected to (each delivery), no redirect is followed (a 3xx is a failed try), at most
 * {@link MAX_RESPONSE_BYTES} of the answer are read, and an answer later than the timeout fails.
 */
export async function postOnce(
  url: string,
  headers: Record<string, string>,
  body: string,
  config: WebhookConfig,
  allow: AllowList,
): Promise<TryResult> {
  const started = Date.now();
  const done = (status: number | null, error: string | null): TryResult => ({ status, error, latencyMs: Date.now() - started });
  let target: URL;
  try {
    target = new URL(url);
    // A literal address is never looked up: check it here; a name is checked by the lookup below.
    if (isIP(hostOf(target)) !== 0) await resolveSafely(hostOf(target), allow);
  } catch (error) {
    return done(null, (error as Error).message);
  }
  const send =
    target.protocol === 'https:' ? httpsRequest : target.protocol === 'http:' && config.allowHttp ? httpRequest : undefined;
  if (send === undefined) return done(null, `${target.protocol} endpoints are not allowed`);
  return new Promise<TryResult>((resolve) => {
    let settled = false;
    const finish = (r: TryResult) => {
      if (!settled) {
        settled = true;
        clearTimeout(timer);
        resolve(r);
      }
    };
    const req = send(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
        lookup: safeLookup(allow),
        agent: false,
      },
      (res) => {
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read >= MAX_RESPONSE_BYTES) {
            res.destroy();
            finish(done(res.statusCode ?? null, null));
          }
        });
        res.on('end', () => finish(done(res.statusCode ?? null, null)));
        res.on('error', () => finish(done(res.statusCode ?? null, null)));
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      finish(done(null, `no answer within ${config.timeoutMs} ms`));
    }, config.timeoutMs);
    req.on('error', (error) => finish(done(null, error.message)));
    req.end(body);
  });
}

/** The wait before try `tries + 1`: exponential from the base, with jitter (half to all of it), at most 10 h. */
export function backoffMs(tries: number, baseMs: number, random: () => number = Math.random): number {
  const full = Math.min(MAX_DELAY_MS, baseMs * 2 ** Math.max(0, tries - 1));
  return Math.round(full * (0.5 + random() / 2));
}

export interface DelivererOptions {
  db: Kysely<Database>;
  dialect: Dialect;
  config: WebhookConfig;
  box: SecretBox;
  /** Table of points → dataset name, for the events' `dataset`. */
  byTable: ReadonlyMap<string, string>;
  clock?: () => Date;
  onError?: (error: unknown) => void;
}

interface Claimed {
  delivery_id: number | string;
  endpoint_id: string;
  event_id: number | string;
  payload: string;
  tries: number | string;
}

/**
 * Delivers events to endpoints (design §20.4): turns each endpoint's new events into deliveries,
 * then sends the due ones. Several deliverers (`serve` instances, `bin/corpdata deliver`) share the
 * work: an endpoint's fan-out is taken with `FOR UPDATE SKIP LOCKED` on PostgreSQL, and only the
 * oldest pending delivery of an endpoint can be claimed, under a lease, so none is sent twice at
 * once and an endpoint gets its events in order. A deliverer killed mid-send leaves a lease that
 * lapses: the delivery is sent again (at least once).
 */
export class Deliverer {
  readonly #o: DelivererOptions;
  readonly #allow: AllowList;
  readonly #clock: () => Date;

  constructor(options: DelivererOptions) {
    this.#o = options;
    this.#allow = new AllowList(options.config.allowHosts);
    this.#clock = options.clock ?? (() => new Date());
  }

  /** One round: fan out, then deliver what is due; returns how many tries were made. */
  async round(): Promise<number> {
    await this.fanOut();
    let made = 0;
    for (;;) {
      const claimed = await this.#claim();
      if (claimed.length === 0) return made;
      await Promise.all(claimed.map((c) => this.#deliver(c)));
      made += claimed.length;
    }
  }

  /** Turns the events after each active endpoint's mark into its deliveries. */
  async fanOut(): Promise<void> {
    const { db } = this.#o;
    // Only endpoints with events after their mark take a write lock: most rounds write nothing.
    const newest = await db
      .selectFrom('events')
      .select((e) => e.fn.max('event_id').as('m'))
      .executeTakeFirst();
    const ids = await db
      .selectFrom('webhook_endpoints')
      .select('endpoint_id')
      .where('deleted_at', 'is', null)
      .where('last_event_id', '<', Number(newest?.m ?? 0))
      .execute();
    for (const { endpoint_id } of ids) {
      await db.transaction().execute(async (trx) => {
        // SQLite: a write first takes the write lock now (waiting its turn), rather than failing to
        // upgrade a read later when another process writes meanwhile.
        if (this.#o.dialect === 'sqlite')
          await trx
            .updateTable('webhook_endpoints')
            .set({ status: sql`status` })
            .where('endpoint_id', '=', endpoint_id)
            .execute();
        const locked = sql`select endpoint_id, event_types, company_ids, datasets, last_event_id from webhook_endpoints
          where endpoint_id = ${endpoint_id} and deleted_at is null${this.#o.dialect === 'postgres' ? sql` for update skip locked` : sql``}`;
        const endpoint = (await locked.execute(trx)).rows[0] as
          | { event_types: string; company_ids: string | null; datasets: string | null; last_event_id: number | string }
          | undefined;
        if (endpoint === undefined) return;
        const events = await listEvents(trx, { after: Number(endpoint.last_event_id), limit: FAN_OUT });
        const last = events.at(-1);
        if (last === undefined) return;
        const types = new Set(endpoint.event_types.split(','));
        const companies = endpoint.company_ids === null ? null : new Set(endpoint.company_ids.split(','));
        const datasets = endpoint.datasets === null ? null : new Set(endpoint.datasets.split(','));
        const now = this.#clock().toISOString();
        const rows = events
          .map((e) => eventRecord(e, this.#o.byTable))
          .filter(
            (e) =>
              types.has(e.type) &&
              (companies === null ||
                (e.company_id !== null && companies.has(e.company_id)) ||
                (e.merged_company_id !== null && companies.has(e.merged_company_id))) &&
              // A merge moves every dataset of the company: a watch of some datasets hears of it too.
              (datasets === null || e.type === 'company.merged' || (e.dataset !== null && datasets.has(e.dataset))),
          )
          .map((e) => ({
            endpoint_id,
            event_id: e.id,
            payload: JSON.stringify({ type: e.type, timestamp: e.occurred_at, data: e }),
            status: 'pending',
            tries: 0,
            next_try_at: now,
            leased_until: null,
            created_at: now,
          }));
        if (rows.length > 0) await trx.insertInto('webhook_deliveries').values(rows).execute();
        await trx
          .updateTable('webhook_endpoints')
          .set({ last_event_id: last.id })
          .where('endpoint_id', '=', endpoint_id)
          .execute();
      });
    }
  }

  async #claim(): Promise<Claimed[]> {
    const now = this.#clock();
    const lease = new Date(now.getTime() + this.#o.config.timeoutMs + 5000).toISOString();
    const at = now.toISOString();
    const lock = this.#o.dialect === 'postgres' ? sql` for update of d skip locked` : sql``;
    const { rows } = await sql<Claimed>`update webhook_deliveries set leased_until = ${lease}
      where delivery_id in (
        select d.delivery_id from webhook_deliveries d
        join webhook_endpoints e on e.endpoint_id = d.endpoint_id
        where d.status = 'pending' and e.status = 'active' and e.deleted_at is null and d.next_try_at <= ${at}
          and (d.leased_until is null or d.leased_until < ${at})
          and d.delivery_id = (select min(x.delivery_id) from webhook_deliveries x
            where x.endpoint_id = d.endpoint_id and x.status = 'pending')
        order by d.delivery_id limit ${CLAIM}${lock})
      returning delivery_id, endpoint_id, event_id, payload, tries`.execute(this.#o.db);
    return rows;
  }

  async #deliver(c: Claimed): Promise<void> {
    const { db, config, box } = this.#o;
    const deliveryId = Number(c.delivery_id);
    try {
      const endpoint = await db
        .selectFrom('webhook_endpoints')
        .select(['url', 'secret'])
        .where('endpoint_id', '=', c.endpoint_id)
        .executeTakeFirstOrThrow();
      const id = `evt_${Number(c.event_id)}`;
      const timestamp = Math.floor(this.#clock().getTime() / 1000);
      const headers = {
        'webhook-id': id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signature(box.open(endpoint.secret), id, timestamp, c.payload),
        'user-agent': 'corpdata-webhooks',
      };
      const result = await postOnce(endpoint.url, headers, c.payload, config, this.#allow);
      const ok = result.status !== null && result.status >= 200 && result.status < 300;
      const tries = Number(c.tries) + 1;
      const now = this.#clock();
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('webhook_attempts')
          .values({
            delivery_id: deliveryId,
            endpoint_id: c.endpoint_id,
            attempted_at: now.toISOString(),
            response_status: result.status,
            latency_ms: result.latencyMs,
            error: result.error ?? (ok ? null : `answered ${result.status}`),
          })
          .execute();
        const exhausted = !ok && tries >= config.tries;
        await trx
          .updateTable('webhook_deliveries')
          .set({
            status: ok ? 'delivered' : exhausted ? 'failed' : 'pending',
            tries,
            leased_until: null,
            next_try_at:
              ok || exhausted ? now.toISOString() : new Date(now.getTime() + backoffMs(tries, config.retryBaseMs)).toISOString(),
          })
          .where('delivery_id', '=', deliveryId)
          .execute();
        if (exhausted)
          await trx
            .updateTable('webhook_endpoints')
            .set({ status: 'failing' })
            .where('endpoint_id', '=', c.endpoint_id)
            .execute();
      });
    } catch (error) {
      this.#o.onError?.(error);
    }
  }
}

/**
 * Runs rounds until stopped: one right away, then every `pollMs`. `stop` waits for the round in
 * hand, so a delivery under way is finished and logged.
 */
export function deliveryLoop(deliverer: Deliverer, pollMs: number, onError: (error: unknown) => void): { stop(): Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();
  const run = () => {
    current = deliverer
      .round()
      .then(
        () => undefined,
        (error: unknown) => onError(error),
      )
      .finally(() => {
        if (!stopped) timer = setTimeout(run, pollMs);
      });
  };
  run();
  return {
    async stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      await current;
    },
  };
}
