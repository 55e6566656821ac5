/**
 * Verifying the webhooks a corpdata server delivers, as the Standard Webhooks specification says:
 * `webhook-signature` holds one or more `v1,<base64 HMAC-SHA256>` of `id.timestamp.body`, keyed
 * with the bytes of the endpoint's secret (the base64 after `whsec_`). Web Crypto only, so it runs
 * in Node 20+, Deno, Bun and edge runtimes alike.
 */

import type { components } from './schema.js';

/** What a verified delivery holds: an event (design §20.3, the document's `Event`), never a value. */
export interface WebhookMessage {
  type: string;
  timestamp: string;
  data: components['schemas']['Event'];
}

/** A delivery that is not the server's, or not now's: refuse it (answer 4xx) and read nothing of it. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

export interface VerifyOptions {
  /** How far the delivery's timestamp may be from now, either way (300 s, the specification's default). */
  toleranceSeconds?: number;
  /** The time to check against (tests); now by default. */
  now?: Date;
}

type HeaderBag = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

function header(headers: HeaderBag, name: string): string {
  if (headers instanceof Headers) return headers.get(name) ?? '';
  const entry = Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];
  return (Array.isArray(entry) ? entry[0] : (entry as string | undefined)) ?? '';
}

const base64Bytes = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/** Equal strings, compared in time that depends on their length only. */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i += 1) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * Checks a delivery's signature and timestamp and returns its event; throws
 * {@link WebhookVerificationError} otherwise. `body` is the request's raw text, as received: a
 * body parsed and written again may differ in a byte and fail.
 *
 * ```ts
 * const message = await verifyWebhook(process.env.CORPDATA_WEBHOOK_SECRET!, request.headers, rawBody);
 * ```
 */
export async function verifyWebhook(
  secret: string,
  headers: HeaderBag,
  body: string,
  options: VerifyOptions = {},
): Promise<WebhookMessage> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (id === '' || timestamp === '' || signatures === '') {
    throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature');
  }
  const seconds = Number(timestamp);
  const now = (options.now ?? new Date()).getTime() / 1000;
  if (!/^\d+$/.test(timestamp) || Math.abs(now - seconds) > (options.toleranceSeconds ?? 300)) {
    throw new WebhookVerificationError('webhook-timestamp is malformed or too far from now');
  }
  const key = await crypto.subtle.importKey(
    'raw',
    base64Bytes(secret.replace(/^whsec_/, '')),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${id}.${timestamp}.${body}`)));
  const expected = `v1,${btoa(String.fromCharCode(...mac))}`;
  // Several signatures may be sent while a secret is rotated: one that matches is enough.
  let matched = false;
  for (const candidate of signatures.split(' ')) matched = sameText(candidate, expected) || matched;
  if (!matched) throw new WebhookVerificationError('no webhook-signature matches the secret');
  return JSON.parse(body) as WebhookMessage;
}
