import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook, WebhookVerificationError } from '../clients/typescript/src/index.js';
import { TEST_TOKEN } from '../src/auth/test-token.js';
import { connect } from '../src/db/connect.js';
import { signingSecret } from '../src/db/migrate.js';
import { datasetTables } from '../src/events/event-record.js';
import { importBundle } from '../src/ingest/sources/bundle/import-bundle.js';
import { Deliverer } from '../src/webhooks/delivery.js';
import { AllowList, ForbiddenAddressError, isForbiddenAddress, resolveSafely } from '../src/webhooks/endpoint-safety.js';
import { SecretBox } from '../src/webhooks/signing.js';
import { startCorpdata, until } from './support/background-cli.js';
import { BUNDLES, DATASETS } from './support/datasets.js';
import { dialects } from './support/dialects.js';
import { FIXTURE_BUNDLE, startApp, TEST_SECRET, type TestApp } from './support/test-app.js';

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

/** A real receiver on 127.0.0.1: answers each request with the next status of `plan` (then 200). */
async function receiver(plan: number[] = []): Promise<{ url: string; got: Received[]; server: Server }> {
  const got: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString('utf8');
    });
    req.on('end', () => {
      got.push({ headers: req.headers, body });
      const status = plan.shift() ?? 200;
      if (status === 302) res.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' }).end();
      else res.writeHead(status).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, got, server };
}

const PYTHON_CLIENT = fileURLToPath(new URL('../clients/python', import.meta.url));

/** What the Python client's `verify_webhook` says of each case: the event's type, or the refusal's class and reason. */
function pythonVerdicts(cases: Array<{ secret: string; headers: Record<string, string>; body: string; now?: number }>) {
  const script = `
import json, sys
sys.path.insert(0, sys.argv[1])
from corpdata import verify_webhook, WebhookVerificationError
out = []
for c in json.load(sys.stdin):
    try:
        out.append(verify_webhook(c["secret"], c["headers"], c["body"].encode(), now=c.get("now"))["type"])
    except WebhookVerificationError as error:
        out.append("refused: " + str(error))
print(json.dumps(out))
`;
  return new Promise<string[]>((resolve, reject) => {
    const child = execFile('python3', ['-I', '-B', '-c', script, PYTHON_CLIENT], { timeout: 30_000 }, (error, stdout, stderr) =>
      error === null ? resolve(JSON.parse(stdout) as string[]) : reject(new Error(stderr || error.message)),
    );
    child.stdin?.end(JSON.stringify(cases));
  });
}

/** Verifies a Standard Webhooks signature as a receiver would. */
function verify(secret: string, r: Received): boolean {
  const id = String(r.headers['webhook-id']);
  const ts = String(r.headers['webhook-timestamp']);
  const expected = createHmac('sha256', Buffer.from(secret.replace(/^whsec_/, ''), 'base64'))
    .update(`${id}.${ts}.${r.body}`)
    .digest('base64');
  return String(r.headers['webhook-signature']).split(' ').includes(`v1,${expected}`);
}

const call = async (t: TestApp, method: string, path: string, key: string, body?: unknown) => {
  const res = await fetch(`${t.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, text, json: <T>() => JSON.parse(text) as T, headers: res.headers };
};

/**
 * Webhooks (design §20.4, §20.5) against a real local receiver: signed as Standard Webhooks says,
 * retried with the log showing each try, marked failing when out of tries, endpoint safety.
 */
describe.each(dialects())('webhooks (%s)', (dialect) => {
  let t: TestApp;
  let deliverer: Deliverer;
  const servers: Server[] = [];
  beforeAll(async () => {
    t = await startApp(dialect, {
      env: {
        CORPDATA_WEBHOOK_ALLOW_HTTP: 'on',
        CORPDATA_WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
        CORPDATA_WEBHOOK_RETRY_BASE_MS: '1',
        CORPDATA_WEBHOOK_TRIES: '3',
        CORPDATA_WEBHOOK_TIMEOUT_MS: '2000',
      },
    });
    deliverer = new Deliverer({
      db: t.db.kysely,
      dialect: t.db.dialect,
      config: t.config.webhooks,
      box: new SecretBox(await signingSecret(t.db.kysely, TEST_SECRET)),
      byTable: datasetTables(DATASETS).byTable,
    });
  }, 90_000);
  afterAll(async () => {
    for (const s of servers) s.close();
    await t.close();
  });

  /** Imports a changed Alpha figure, so a new event follows registration; returns nothing. */
  let bump = 0;
  const newEvent = async () => {
    bump += 1;
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'corpdata-hook-'));
    writeFileSync(
      join(dir, 'revenues.csv'),
      `company_id,document_id,reporting_period,value,currency\n00000000-0000-4000-8000-000000000001,10000000-0000-4000-8000-000000000001,2022,${22_511_000_000 + bump},EUR\n`,
    );
    await importBundle(t.db.kysely, dir, BUNDLES);
  };
  /** Rounds until nothing is due now (retries come within milliseconds here). */
  const drain = async () => {
    for (let i = 0; i < 20; i += 1) {
      await deliverer.round();
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  it('delivers a new event signed as Standard Webhooks says, and lists it in the log', async () => {
    const { key } = await t.account();
    const r = await receiver();
    servers.push(r.server);
    const created = await call(t, 'POST', '/api/v1/webhooks', key, { url: r.url, event_types: ['figure.restated'] });
    expect(created.status, created.text).toBe(201);
    expect(created.headers.get('x-credit-cost')).toBe('0');
    const endpoint = created.json<{ id: string; secret: string; status: string }>();
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(endpoint.status).toBe('active');
    // Shown once: never in the list, never stored in the clear.
    const listed = await call(t, 'GET', '/api/v1/webhooks', key);
    expect(listed.text).not.toContain(endpoint.secret);
    const stored = await t.db.kysely
      .selectFrom('webhook_endpoints')
      .select('secret')
      .where('endpoint_id', '=', endpoint.id)
      .executeTakeFirstOrThrow();
    expect(stored.secret).not.toContain(endpoint.secret.slice(6));

    await newEvent();
    await drain();
    expect(r.got).toHaveLength(1);
    const [hit] = r.got;
    if (hit === undefined) throw new Error('nothing received');
    expect(verify(endpoint.secret, hit)).toBe(true);
    expect(verify('whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=', hit)).toBe(false);
    const body = JSON.parse(hit.body) as { type: string; data: { type: string; dataset: string; company_id: string } };
    expect(body.type).toBe('figure.restated');
    expect(body.data).toMatchObject({
      type: 'figure.restated',
      dataset: 'revenues',
      company_id: '00000000-0000-4000-8000-000000000001',
    });
    expect(hit.body).not.toMatch(/value/);
    expect(Math.abs(Number(hit.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    const log = await call(t, 'GET', `/api/v1/webhooks/${endpoint.id}/deliveries`, key);
    expect(log.status).toBe(200);
    const deliveries = log.json<{ deliveries: Array<{ status: string; attempts: Array<{ response_status: number }> }> }>()
      .deliveries;
    expect(deliveries.map((d) => [d.status, d.attempts.map((a) => a.response_status)])).toEqual([['delivered', [200]]]);
  }, 90_000);

  it("a receiver verifies a real delivery with either client's helper; another body, secret or time is refused", async () => {
    const { key } = await t.account();
    const r = await receiver();
    servers.push(r.server);
    const endpoint = (await call(t, 'POST', '/api/v1/webhooks', key, { url: r.url, event_types: ['figure.restated'] })).json<{
      secret: string;
    }>();
    await newEvent();
    await drain();
    const [hit] = r.got;
    if (hit === undefined) throw new Error('nothing received');
    const headers = Object.fromEntries(
      ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) => [h, String(hit.headers[h])]),
    );
    const sent = Number(headers['webhook-timestamp']);
    const other = 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';
    const tampered = hit.body.replace('figure.restated', 'figure.published');
    const message = await verifyWebhook(endpoint.secret, headers, hit.body);
    expect(message).toMatchObject({ type: 'figure.restated', data: { company_id: '00000000-0000-4000-8000-000000000001' } });
    // A Headers object, as a fetch-style server hands it, and a second signature beside it (a rotation).
    const rotated = new Headers({ ...headers, 'webhook-signature': `v1,${'A'.repeat(44)} ${headers['webhook-signature']}` });
    expect((await verifyWebhook(endpoint.secret, rotated, hit.body)).type).toBe('figure.restated');
    for (const [secret, body, now] of [
      [endpoint.secret, tampered, undefined],
      [other, hit.body, undefined],
      [endpoint.secret, hit.body, new Date((sent + 301) * 1000)],
    ] as const) {
      await expect(verifyWebhook(secret, headers, body, now === undefined ? {} : { now })).rejects.toBeInstanceOf(
        WebhookVerificationError,
      );
    }
    await expect(verifyWebhook(endpoint.secret, {}, hit.body)).rejects.toThrow(/missing webhook-id/);
    expect(
      await pythonVerdicts([
        { secret: endpoint.secret, headers, body: hit.body },
        {
          secret: endpoint.secret,
          headers: {
            'Webhook-Id': headers['webhook-id'] ?? '',
            'Webhook-Timestamp': headers['webhook-timestamp'] ?? '',
            'Webhook-Signature': rotated.get('webhook-signature') ?? '',
          },
          body: hit.body,
        },
        { secret: endpoint.secret, headers, body: tampered },
        { secret: other, headers, body: hit.body },
        { secret: endpoint.secret, headers, body: hit.body, now: sent + 301 },
        { secret: endpoint.secret, headers: { ...headers, 'webhook-signature': 'v1,é' }, body: hit.body },
      ]),
    ).toEqual([
      'figure.restated',
      'figure.restated',
      'refused: no webhook-signature matches the secret',
      'refused: no webhook-signature matches the secret',
      'refused: webhook-timestamp is malformed or too far from now',
      'refused: no webhook-signature matches the secret',
    ]);
  }, 90_000);

  it('sends a signed sample event on demand and says what the receiver answered, outside the log and the feed', async () => {
    const { key } = await t.account();
    const r = await receiver([200, 500, 302]);
    servers.push(r.server);
    const endpoint = (
      await call(t, 'POST', '/api/v1/webhooks', key, { url: r.url, company_ids: ['00000000-0000-4000-8000-000000000002'] })
    ).json<{ id: string; secret: string }>();
    const feedBefore = (await call(t, 'GET', '/api/v1/events?after=0&limit=1000', key)).json<{ events: unknown[] }>().events;
    const sent = await call(t, 'POST', `/api/v1/webhooks/${endpoint.id}/test`, key);
    expect(sent.status, sent.text).toBe(200);
    expect(sent.headers.get('x-credit-cost')).toBe('0');
    const result = sent.json<{ webhook_id: string; delivered: boolean; response_status: number; error: string | null }>();
    expect(result).toMatchObject({ delivered: true, response_status: 200, error: null });
    expect(result.webhook_id).toMatch(/^evt_test_[0-9a-f-]{36}$/);
    const [hit] = r.got;
    if (hit === undefined) throw new Error('nothing received');
    expect(hit.headers['webhook-id']).toBe(result.webhook_id);
    const message = await verifyWebhook(endpoint.secret, hit.headers as Record<string, string>, hit.body);
    expect(message).toMatchObject({
      type: 'figure.published',
      data: { id: 0, company_id: '00000000-0000-4000-8000-000000000002', document_id: null, point_id: null },
    });
    // A receiver that fails is told as such; nothing is retried, logged or added to the feed.
    const failed = (await call(t, 'POST', `/api/v1/webhooks/${endpoint.id}/test`, key)).json<Record<string, unknown>>();
    expect(failed).toMatchObject({ delivered: false, response_status: 500, error: 'answered 500' });
    // A redirect (to another address) is not followed: the sample fails with the 302.
    const redirected = (await call(t, 'POST', `/api/v1/webhooks/${endpoint.id}/test`, key)).json<Record<string, unknown>>();
    expect(redirected).toMatchObject({ delivered: false, response_status: 302 });
    await drain();
    expect(r.got).toHaveLength(3);
    const log = (await call(t, 'GET', `/api/v1/webhooks/${endpoint.id}/deliveries`, key)).json<{ deliveries: unknown[] }>();
    expect(log.deliveries).toEqual([]);
    expect((await call(t, 'GET', '/api/v1/events?after=0&limit=1000', key)).json<{ events: unknown[] }>().events).toEqual(
      feedBefore,
    );
    // Only the endpoint's own account may test it; the test token manages no endpoint.
    const stranger = await t.account();
    expect((await call(t, 'POST', `/api/v1/webhooks/${endpoint.id}/test`, stranger.key)).status).toBe(404);
    expect((await call(t, 'POST', `/api/v1/webhooks/${endpoint.id}/test`, TEST_TOKEN)).status).toBe(400);
    expect((await call(t, 'POST', '/api/v1/webhooks/not-an-id/test', key)).status).toBe(404);
  }, 90_000);

  it('retries a failed delivery and logs both tries; out of tries marks the endpoint failing, and redelivery sends it again', async () => {
    const { key } = await t.account();
    const r = await receiver([500, 302, 200, 503, 503, 503]);
    servers.push(r.server);
    const endpoint = (
      await call(t, 'POST', '/api/v1/webhooks', key, { url: r.url, company_ids: ['00000000-0000-4000-8000-000000000001'] })
    ).json<{
      id: string;
    }>();
    await newEvent();
    await drain();
    // 500, then a 302 not followed (nothing asked of its location), then a 2xx: three tries.
    expect(r.got.map((g) => g.headers['webhook-id'])).toEqual([
      r.got[0]?.headers['webhook-id'],
      r.got[0]?.headers['webhook-id'],
      r.got[0]?.headers['webhook-id'],
    ]);
    const log = (await call(t, 'GET', `/api/v1/webhooks/${endpoint.id}/deliveries`, key)).json<{
      deliveries: Array<{ id: number; status: string; attempts: Array<{ response_status: number }> }>;
    }>();
    expect(log.deliveries.map((d) => [d.status, d.attempts.map((a) => a.response_status)])).toEqual([
      ['delivered', [500, 302, 200]],
    ]);

    // Down for every try: the endpoint is marked failing; the events feed still has the event.
    await newEvent();
    await drain();
    const failing = (await call(t, 'GET', '/api/v1/webhooks', key)).json<{ webhooks: Array<{ id: string; status: string }> }>();
    expect(failing.webhooks.find((w) => w.id === endpoint.id)?.status).toBe('failing');
    const after = (await call(t, 'GET', `/api/v1/webhooks/${endpoint.id}/deliveries`, key)).json<{
      deliveries: Array<{ id: number; event_id: number; status: string; attempts: unknown[] }>;
    }>();
    const failed = after.deliveries[0];
    expect([failed?.status, failed?.attempts.length]).toEqual(['failed', 3]);
    const feed = await call(t, 'GET', `/api/v1/events?after=${(failed?.event_id ?? 1) - 1}&limit=1`, key);
    expect(feed.json<{ events: Array<{ id: number }> }>().events[0]?.id).toBe(failed?.event_id);

    const again = await call(t, 'POST', `/api/v1/webhooks/${endpoint.id}/deliveries/${failed?.id}/redeliver`, key, {});
    expect(again.status, again.text).toBe(202);
    await drain();
    const done = (await call(t, 'GET', `/api/v1/webhooks/${endpoint.id}/deliveries`, key)).json<{
      deliveries: Array<{ status: string }>;
    }>();
    expect(done.deliveries[0]?.status).toBe('delivered');
    expect(r.got).toHaveLength(7);
  }, 90_000);

  it.each([
    ['http://169.254.169.254/latest/meta-data/', 'link-local'],
    ['http://10.0.0.1/hook', 'private'],
    ['ftp://example.com/hook', 'https://'],
  ])('refuses %s unless the operator allows it', async (url) => {
    const { key } = await t.account();
    const res = await call(t, 'POST', '/api/v1/webhooks', key, { url });
    expect(res.status).toBe(400);
    expect(res.text).toContain("'url'");
  });

  it('refuses a host resolving to 127.0.0.1 unless the operator lists it', async () => {
    await expect(resolveSafely('localhost', new AllowList([]))).rejects.toThrow(ForbiddenAddressError);
    await expect(resolveSafely('localhost', new AllowList(['localhost']))).resolves.toEqual(
      expect.arrayContaining([expect.objectContaining({ address: expect.any(String) })]),
    );
    await expect(resolveSafely('localhost', new AllowList(['127.0.0.0/8', '::1']))).resolves.toBeDefined();
  });

  it('knows the forbidden ranges, IPv4-mapped IPv6 included', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:10.0.0.1',
      '0.0.0.0',
    ])
      expect(isForbiddenAddress(a), a).toBe(true);
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700::1111']) expect(isForbiddenAddress(a), a).toBe(false);
  });

  it('holds at most 10 endpoints an account, deletes them, and refuses the test token and unknown ids', async () => {
    const { key } = await t.account();
    const r = await receiver();
    servers.push(r.server);
    const ids: string[] = [];
    for (let i = 0; i < 10; i += 1) {
      const res = await call(t, 'POST', '/api/v1/webhooks', key, { url: `${r.url}?n=${i}` });
      expect(res.status, res.text).toBe(201);
      ids.push(res.json<{ id: string }>().id);
    }
    const eleventh = await call(t, 'POST', '/api/v1/webhooks', key, { url: r.url });
    expect([eleventh.status, eleventh.text.includes('at most 10')]).toEqual([400, true]);
    const removed = await call(t, 'DELETE', `/api/v1/webhooks/${ids[0]}`, key);
    expect(removed.status).toBe(204);
    expect((await call(t, 'DELETE', `/api/v1/webhooks/${ids[0]}`, key)).status).toBe(404);
    expect((await call(t, 'POST', '/api/v1/webhooks', key, { url: r.url })).status).toBe(201);
    const other = await t.account();
    expect((await call(t, 'DELETE', `/api/v1/webhooks/${ids[1]}`, other.key)).status).toBe(404);
    expect((await call(t, 'GET', `/api/v1/webhooks/${ids[1]}/deliveries`, other.key)).status).toBe(404);
    expect((await call(t, 'POST', '/api/v1/webhooks', TEST_TOKEN, { url: r.url })).status).toBe(400);
    expect((await call(t, 'POST', '/api/v1/webhooks', key, { url: r.url, event_types: ['nope'] })).text).toContain(
      'event_types[0]',
    );
    expect((await call(t, 'PUT', '/api/v1/webhooks', key)).headers.get('allow')).toBe('GET, POST');
    expect((await fetch(`${t.url}/api/v1/webhooks`)).status).toBe(401);
  }, 90_000);

  it('is delivered by bin/corpdata deliver, which exits 0 on SIGTERM', async () => {
    const { key } = await t.account();
    const r = await receiver();
    servers.push(r.server);
    const endpoint = (await call(t, 'POST', '/api/v1/webhooks', key, { url: r.url })).json<{ secret: string }>();
    const run = startCorpdata(['deliver'], {
      CORPDATA_DATABASE: t.database.url,
      CORPDATA_SECRET: TEST_SECRET,
      CORPDATA_WEBHOOK_ALLOW_HTTP: 'on',
      CORPDATA_WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
      CORPDATA_WEBHOOK_POLL_MS: '50',
    });
    try {
      await newEvent();
      await until(() => r.got.length > 0, 'a delivery by bin/corpdata deliver');
      const [hit] = r.got;
      expect(hit !== undefined && verify(endpoint.secret, hit)).toBe(true);
    } finally {
      run.child.kill('SIGTERM');
    }
    const exit = await run.exited;
    expect([exit.code, exit.stderr]).toEqual([0, '']);
  }, 90_000);

  it('shares the work between three deliverers on their own connections: each event once, in order', async () => {
    const { key } = await t.account();
    const r = await receiver();
    servers.push(r.server);
    expect((await call(t, 'POST', '/api/v1/webhooks', key, { url: r.url, event_types: ['filing.ingested'] })).status).toBe(201);
    const at = new Date().toISOString();
    const rows = Array.from({ length: 120 }, (_, i) => ({ type: 'filing.ingested', occurred_at: at, document_id: `doc-${i}` }));
    await t.db.kysely.insertInto('events').values(rows).execute();
    const box = new SecretBox(await signingSecret(t.db.kysely, TEST_SECRET));
    // On PostgreSQL each on its own pool, as instances are. SQLite's connections block the one thread
    // while they wait for its write lock, so in one process the three share the app's connection.
    const own = dialect === 'postgres';
    const dbs = [0, 1, 2].map(() => (own ? connect(t.config.database, { poolSize: 2, statementTimeoutMs: 10_000 }) : t.db));
    try {
      const deliverers = dbs.map(
        (db) =>
          new Deliverer({
            db: db.kysely,
            dialect: db.dialect,
            config: t.config.webhooks,
            box,
            byTable: datasetTables(DATASETS).byTable,
          }),
      );
      await until(async () => {
        await Promise.all(deliverers.map((d) => d.round()));
        return r.got.length >= 120;
      }, '120 deliveries');
      await Promise.all(deliverers.map((d) => d.round()));
    } finally {
      if (own) for (const db of dbs) await db.close();
    }
    const docs = r.got.map((g) => (JSON.parse(g.body) as { data: { document_id: string } }).data.document_id);
    expect(docs).toEqual(rows.map((row) => row.document_id));
  }, 120_000);

  it('imports the fixture twice without a delivery for the second', async () => {
    const { key } = await t.account();
    const r = await receiver();
    servers.push(r.server);
    expect((await call(t, 'POST', '/api/v1/webhooks', key, { url: r.url })).status).toBe(201);
    // The first import may restore a figure an earlier test changed; the second changes nothing.
    await importBundle(t.db.kysely, FIXTURE_BUNDLE, BUNDLES);
    await drain();
    const first = r.got.length;
    await importBundle(t.db.kysely, FIXTURE_BUNDLE, BUNDLES);
    await drain();
    expect(r.got).toHaveLength(first);
  }, 90_000);
});
