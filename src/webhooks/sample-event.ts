import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { WebhookConfig } from '../config.js';
import type { Database } from '../db/schema.js';
import { postOnce, type TryResult } from './delivery.js';
import type { AllowList } from './endpoint-safety.js';
import { type SecretBox, signature } from './signing.js';

/** What a sample delivery sent and got: its `webhook-id` (`evt_test_…`), and the one try's outcome. */
export interface SampleResult extends TryResult {
  id: string;
}

/**
 * Sends an endpoint one signed sample event now, as a delivery is sent (same headers, signature,
 * endpoint safety and limits), once and without a retry, the log or the events feed: a receiver
 * is checked before real events reach it. The sample is a `figure.published` of the endpoint's
 * first watched company (else none) whose event id is 0, which no event has, and whose
 * `webhook-id` starts `evt_test_`, so that a receiver can tell it apart and still verify it.
 */
export async function sendSample(
  db: Kysely<Database>,
  box: SecretBox,
  endpointId: string,
  config: WebhookConfig,
  allow: AllowList,
  now: Date,
): Promise<SampleResult> {
  const endpoint = await db
    .selectFrom('webhook_endpoints')
    .select(['url', 'secret', 'company_ids', 'datasets'])
    .where('endpoint_id', '=', endpointId)
    .executeTakeFirstOrThrow();
  const at = now.toISOString();
  const data = {
    id: 0,
    type: 'figure.published',
    occurred_at: at,
    company_id: endpoint.company_ids?.split(',')[0] ?? null,
    dataset: endpoint.datasets?.split(',')[0] ?? 'revenues',
    reporting_period: now.getUTCFullYear() - 1,
    document_id: null,
    point_id: null,
    merged_company_id: null,
  };
  const payload = JSON.stringify({ type: data.type, timestamp: at, data });
  const id = `evt_test_${randomUUID()}`;
  const timestamp = Math.floor(now.getTime() / 1000);
  const headers = {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signature(box.open(endpoint.secret), id, timestamp, payload),
    'user-agent': 'corpdata-webhooks',
  };
  return { id, ...(await postOnce(endpoint.url, headers, payload, config, allow)) };
}
