import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BUNDLE_DIR } from '../src/cli/open-database.js';
import { NOT_FOUND_EXAMPLE, PARAMETER_EXAMPLES } from '../src/http/openapi-examples.js';
import { exampleUrl } from '../src/site/reference-operation.js';
import { endpoints, type OpenApiDocument } from '../src/site/reference-schema.js';
import { dialects } from './support/dialects.js';
import { startApp, type TestAccount, type TestApp } from './support/test-app.js';

/*
 * The examples of the served OpenAPI document (and of the reference page) are the demo's real
 * answers: each example call, made as the reference page shows it by an account that has bought
 * the company-periods it names, answers exactly the example response. When the demo changes, this
 * says which example to update (a dataset's in its folder, `openApiExamples`; the others in
 * src/http/openapi-examples.ts).
 */

type Media = { example?: unknown };
type Operation = {
  operationId: string;
  requestBody?: { content?: Record<string, Media> };
  responses: Record<string, { content?: Record<string, Media> }>;
};

const PROBLEM = { accept: 'application/problem+json' };

describe.each(dialects())('the OpenAPI examples, against the demo dataset (%s)', (dialect) => {
  let t: TestApp;
  let caller: TestAccount;
  let doc: OpenApiDocument;
  beforeAll(async () => {
    t = await startApp(dialect, { bundle: DEMO_BUNDLE_DIR });
    caller = await t.account({ credits: 100_000 });
    doc = (await t.get('/api/v1/openapi.json')).json<OpenApiDocument>();
  }, 120_000);
  afterAll(() => t.close());

  /** The answer to an operation's example call, as the reference page shows the call. */
  async function call(endpoint: ReturnType<typeof endpoints>[number]): Promise<{ status: number; body: unknown }> {
    const url = exampleUrl('', endpoint);
    const body = (endpoint.op as unknown as Operation).requestBody?.content?.['application/json']?.example;
    const res = body === undefined ? await t.get(url, caller.key) : await t.post(url, body, caller.key);
    return { status: res.status, body: res.status === 200 ? res.json() : res.text };
  }

  it('answers every example call of the document with its example response', async () => {
    const all = endpoints(doc);
    expect(all.length).toBeGreaterThanOrEqual(17);
    // The account buys the example figures first, so that their provenance shows the values.
    const ordered = [...all.filter((e) => e.id !== 'getProvenance'), ...all.filter((e) => e.id === 'getProvenance')];
    for (const endpoint of ordered) {
      const example = (endpoint.op as unknown as Operation).responses['200']?.content?.['application/json']?.example;
      expect(example, endpoint.id).toBeDefined();
      // The events feed's example is of its filters (optional parameters, which the page's call leaves out).
      const { status, body } =
        endpoint.id === 'listEvents'
          ? await t
              .get(
                `/api/v1/events?company_id=${String(PARAMETER_EXAMPLES.company_id)}&type=figure.published&dataset=revenues&limit=1`,
                caller.key,
              )
              .then((r) => ({ status: r.status, body: r.json() as unknown }))
          : await call(endpoint);
      expect(status, `${endpoint.id}: ${String(body)}`).toBe(200);
      if (endpoint.id === 'listCompanies') {
        // The list holds every company of the demo: the example shows its first.
        const shown = example as unknown[];
        expect((body as unknown[]).slice(0, shown.length), endpoint.id).toEqual(shown);
      } else if (endpoint.id === 'getAccount') {
        // The account is the caller's own: its id and balance are whatever they are.
        const account = body as { account_id: string; balance: number };
        expect(account.account_id).toBe(caller.accountId);
        const shown = example as { account_id: string; balance: number };
        expect({ ...account, account_id: shown.account_id, balance: shown.balance }, endpoint.id).toEqual(shown);
      } else if (endpoint.id === 'getStatus') {
        // The demo's documents were served when this test seeded it: their lags run on with the clock.
        type Status = { generated_at: string; sources: Array<{ served_24h: Record<string, number | null> }> };
        const lagless = (s: Status) => ({
          sources: s.sources.map((x) => ({ ...x, served_24h: { documents: x.served_24h.documents } })),
        });
        expect(lagless(body as Status), endpoint.id).toEqual(lagless(example as Status));
        for (const x of (body as Status).sources) expect(Number.isInteger(x.served_24h.median_lag_seconds)).toBe(true);
      } else if (endpoint.id === 'listEvents') {
        // An event's time is when the demo was imported.
        const page = body as { events: Array<{ occurred_at: string }> };
        const shown = example as { events: Array<{ occurred_at: string }> };
        const at = shown.events.map((e) => e.occurred_at);
        expect({ ...page, events: page.events.map((e, i) => ({ ...e, occurred_at: at[i] })) }, endpoint.id).toEqual(shown);
      } else {
        expect(body, endpoint.id).toEqual(example);
      }
    }
  }, 120_000);

  it('suggests the companies the 404 example names for a mistyped ticker', async () => {
    const op = doc.paths['/api/v1/revenues']?.get as unknown as Operation;
    const example = op.responses['404']?.content?.['application/problem+json']?.example as { did_you_mean?: unknown };
    expect(example.did_you_mean).toEqual(NOT_FOUND_EXAMPLE.did_you_mean);
    const res = await t.get(`/api/v1/revenues?ticker=${NOT_FOUND_EXAMPLE.ticker}&reporting_period=-1`, caller.key, PROBLEM);
    expect(res.status).toBe(404);
    expect({ ...res.json<object>(), instance: undefined }).toEqual({ ...example, instance: undefined });
  });

  it('builds the example links from the public URL', () => {
    const op = doc.paths['/api/v1/revenues']?.get as unknown as Operation;
    const records = op.responses['200']?.content?.['application/json']?.example as
      | Array<{ traceability_source_url: string }>
      | undefined;
    expect(records?.[0]?.traceability_source_url.startsWith(`${t.config.publicUrl}/trace/`)).toBe(true);
  });
});
