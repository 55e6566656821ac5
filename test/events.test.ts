import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TEST_TOKEN } from '../src/auth/test-token.js';
import { importBundle } from '../src/ingest/sources/bundle/import-bundle.js';
import { type CliResult, corpdata } from './support/cli.js';
import { BUNDLES } from './support/datasets.js';
import { dialects } from './support/dialects.js';
import { ALPHA, BETA, doc } from './support/fixture.js';
import { FIXTURE_BUNDLE, startApp, TEST_SECRET, type TestApp } from './support/test-app.js';

interface Event {
  id: number;
  type: string;
  occurred_at: string;
  company_id: string | null;
  dataset: string | null;
  reporting_period: number | null;
  document_id: string | null;
  point_id: string | null;
}
interface Page {
  events: Event[];
  next_after: number | null;
}

const DOCUMENT_HEADER = 'document_id,company_id,title,source_url,published_on,reporting_period,status';
const REVENUE_HEADER = 'company_id,document_id,reporting_period,value,currency';
const ALPHA_2024 = doc(90);
const EVENT_FIELDS = [
  'company_id',
  'dataset',
  'document_id',
  'id',
  'merged_company_id',
  'occurred_at',
  'point_id',
  'reporting_period',
  'type',
];

/**
 * The events feed (design §20.3): events written in the transaction of each import, read with a
 * key at no cost, with a cursor and filters, never carrying a value.
 */
describe.each(dialects())('events (%s)', (dialect) => {
  let t: TestApp;
  let dir: string;
  let key: string;
  let bundles = 0;
  const env = () => ({ CORPDATA_DATABASE: t.database.url, CORPDATA_SECRET: TEST_SECRET });
  const importFiles = (files: Record<string, string>): Promise<CliResult> => {
    const bundle = join(dir, `bundle-${++bundles}`);
    mkdirSync(bundle);
    for (const [name, text] of Object.entries(files)) writeFileSync(join(bundle, name), text);
    return corpdata(['import', bundle], env());
  };
  /** Every event, walked page by page through the API. */
  const all = async (query = ''): Promise<Event[]> => {
    const res = await t.get(`/api/v1/events?limit=1000${query}`, key);
    expect(res.status, res.text).toBe(200);
    return res.json<Page>().events;
  };
  const lastId = async (): Promise<number> => {
    const row = await t.db.kysely
      .selectFrom('events')
      .select((eb) => eb.fn.max('event_id').as('m'))
      .executeTakeFirst();
    return Number(row?.m ?? 0);
  };

  beforeAll(async () => {
    t = await startApp(dialect);
    dir = mkdtempSync(join(tmpdir(), 'corpdata-events-'));
    key = (await t.account({ credits: 100 })).key;
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t.close();
  });
  afterEach(() => t.expectLedgersBalance());

  it('writes filing.ingested per processed document and figure.published per served company-period, free and without a value', async () => {
    const res = await t.get('/api/v1/events?limit=1000', key);
    expect(res.status).toBe(200);
    expect([res.cost, res.balance]).toEqual([0, 100]);
    const events = res.json<Page>().events;
    const processed = await t.db.kysely
      .selectFrom('documents')
      .select('document_id')
      .where('status', '=', 'processed')
      .orderBy('document_id')
      .execute();
    expect(
      events
        .filter((e) => e.type === 'filing.ingested')
        .map((e) => e.document_id)
        .sort(),
    ).toEqual(processed.map((d) => d.document_id));
    const served = await sql<{ company_id: string; reporting_period: number }>`
      select distinct p.company_id, p.reporting_period from revenue_points p
      join documents d on d.document_id = p.document_id and d.status = 'processed'`.execute(t.db.kysely);
    const published = events.filter((e) => e.type === 'figure.published');
    expect(published.map((e) => `${e.company_id}:${e.reporting_period}`).sort()).toEqual(
      served.rows.map((r) => `${r.company_id}:${Number(r.reporting_period)}`).sort(),
    );
    // A pending report's figure (Gamma 2024) is not told until it is served.
    expect(published.some((e) => e.document_id === doc(6))).toBe(false);
    for (const e of published) {
      expect(e.dataset).toBe('revenues');
      const point = await t.db.kysely
        .selectFrom('revenue_points')
        .select(['company_id', 'document_id'])
        .where('point_id', '=', e.point_id ?? '')
        .executeTakeFirst();
      expect(point).toEqual({ company_id: e.company_id, document_id: e.document_id });
    }
    for (const e of events) expect(Object.keys(e).sort()).toEqual(EVENT_FIELDS);
    expect(events.map((e) => e.id)).toEqual([...events.map((e) => e.id)].sort((a, b) => a - b));
    expect(await t.db.kysely.selectFrom('ledger').select('entry_id').where('kind', '=', 'charge').execute()).toEqual([]);
  }, 90_000);

  it('writes no second event when the same bundle is imported again', async () => {
    const before = await lastId();
    expect(before).toBeGreaterThan(0);
    const again = await corpdata(['import', FIXTURE_BUNDLE], env());
    expect(again.code, again.stderr).toBe(0);
    await importBundle(t.db.kysely, FIXTURE_BUNDLE, BUNDLES);
    expect(await lastId()).toBe(before);
  }, 90_000);

  it('tells a new period as figure.published, a changed figure as figure.restated, a repeated one not at all', async () => {
    const before = await lastId();
    const imported = await importFiles({
      'documents.csv': `${DOCUMENT_HEADER}\n${ALPHA_2024},${ALPHA.id},Alpha Annual Report 2024,https://example.com/alpha/ar2024.pdf,2025-03-14,2024,processed\n`,
      'revenues.csv':
        `${REVENUE_HEADER}\n` +
        `${ALPHA.id},${ALPHA_2024},2024,23000000000,USD\n` +
        // The 2023 figure repeated by the later report: nothing new to tell.
        `${ALPHA.id},${ALPHA_2024},2023,21427000000,EUR\n` +
        // The 2022 report's own figure, corrected.
        `${ALPHA.id},${doc(1)},2022,22600000000,EUR\n`,
    });
    expect(imported.code, imported.stderr).toBe(0);
    const events = (await all()).filter((e) => e.id > before);
    const alpha2022 = await t.db.kysely
      .selectFrom('revenue_points')
      .select('point_id')
      .where('document_id', '=', doc(1))
      .where('reporting_period', '=', 2022)
      .executeTakeFirstOrThrow();
    const alpha2024 = await t.db.kysely
      .selectFrom('revenue_points')
      .select('point_id')
      .where('document_id', '=', ALPHA_2024)
      .where('reporting_period', '=', 2024)
      .executeTakeFirstOrThrow();
    expect(
      events.map(({ type, company_id, dataset, reporting_period, document_id, point_id }) => ({
        type,
        company_id,
        dataset,
        reporting_period,
        document_id,
        point_id,
      })),
    ).toEqual([
      {
        type: 'filing.ingested',
        company_id: ALPHA.id,
        dataset: null,
        reporting_period: 2024,
        document_id: ALPHA_2024,
        point_id: null,
      },
      {
        type: 'figure.published',
        company_id: ALPHA.id,
        dataset: 'revenues',
        reporting_period: 2024,
        document_id: ALPHA_2024,
        point_id: alpha2024.point_id,
      },
      {
        type: 'figure.restated',
        company_id: ALPHA.id,
        dataset: 'revenues',
        reporting_period: 2022,
        document_id: doc(1),
        point_id: alpha2022.point_id,
      },
    ]);
    expect(JSON.stringify(events)).not.toMatch(/22600000000|23000000000|value/);
  }, 90_000);

  it('tells a pending report once it is processed, and writes nothing for a refused import', async () => {
    const before = await lastId();
    const gamma = '00000000-0000-4000-8000-000000000003';
    const refused = await importFiles({
      'documents.csv': `${DOCUMENT_HEADER}\n${doc(6)},${gamma},Gamma Annual Report 2024,https://example.com/gamma/ar2024.pdf,2025-04-01,2024,processed\n`,
      'revenues.csv': `${REVENUE_HEADER}\n${gamma},${doc(99)},2024,1,USD\n`,
    });
    expect(refused.code).not.toBe(0);
    expect(await lastId()).toBe(before);
    const processed = await importFiles({
      'documents.csv': `${DOCUMENT_HEADER}\n${doc(6)},${gamma},Gamma Annual Report 2024,https://example.com/gamma/ar2024.pdf,2025-04-01,2024,processed\n`,
    });
    expect(processed.code, processed.stderr).toBe(0);
    const events = (await all()).filter((e) => e.id > before);
    expect(events.map((e) => [e.type, e.document_id, e.reporting_period])).toEqual([
      ['filing.ingested', doc(6), 2024],
      ['figure.published', doc(6), 2024],
    ]);
  }, 90_000);

  it('filters by type, company and dataset, and pages with after, limit and Link', async () => {
    const everything = await all();
    expect(everything.length).toBeGreaterThan(5);
    const filings = await all('&type=filing.ingested');
    expect(filings).toEqual(everything.filter((e) => e.type === 'filing.ingested'));
    const beta = await all(`&company_id=${BETA.id}`);
    expect(beta.length).toBeGreaterThan(0);
    expect(beta).toEqual(everything.filter((e) => e.company_id === BETA.id));
    const revenues = await all('&dataset=revenues&type=figure.published');
    expect(revenues).toEqual(everything.filter((e) => e.dataset === 'revenues' && e.type === 'figure.published'));
    expect(await all('&dataset=ghg-emissions')).toEqual([]);

    const walked: Event[] = [];
    let after = 0;
    for (;;) {
      const res = await t.get(`/api/v1/events?limit=4&after=${after}`, key);
      expect(res.status).toBe(200);
      const page = res.json<Page>();
      walked.push(...page.events);
      if (page.next_after === null) {
        expect(res.headers.get('link')).toBeNull();
        break;
      }
      expect(page.events).toHaveLength(4);
      expect(res.headers.get('link')).toBe(`<${t.config.publicUrl}/api/v1/events?limit=4&after=${page.next_after}>; rel="next"`);
      after = page.next_after;
    }
    expect(walked).toEqual(everything);
    const tail = await t.get(`/api/v1/events?after=${everything.at(-2)?.id}`, key);
    expect(tail.json<Page>()).toEqual({ events: [everything.at(-1)], next_after: null });
  }, 90_000);

  it.each([
    ['after=-1', 'after'],
    ['after=x', 'after'],
    ['limit=0', 'limit'],
    ['limit=1001', 'limit'],
    ['type=figure.deleted', 'type'],
    ['dataset=nothing', 'dataset'],
    ['company_id=not-a-uuid', 'company_id'],
    ['since=1', 'since'],
  ])('answers 400 naming the parameter for %s, charging nothing', async (query, param) => {
    const res = await t.get(`/api/v1/events?${query}`, key);
    expect(res.status).toBe(400);
    expect(res.text).toContain(param);
  });

  it('needs a key; the test token sees no live event', async () => {
    expect((await t.get('/api/v1/events', null)).status).toBe(401);
    const test = await t.get('/api/v1/events', TEST_TOKEN);
    expect(test.status).toBe(200);
    expect(test.json<Page>()).toEqual({ events: [], next_after: null });
  }, 90_000);

  it('prunes events older than the retention period with bin/corpdata prune-events', async () => {
    const first = (await all())[0];
    if (first === undefined) throw new Error('no events');
    const old = new Date(Date.now() - 91 * 86_400_000).toISOString();
    await t.db.kysely.updateTable('events').set({ occurred_at: old }).where('event_id', '=', first.id).execute();
    const refused = await corpdata(['prune-events', '--days', '0'], env());
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('--days');
    const pruned = await corpdata(['prune-events'], env());
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(pruned.json()).toEqual({ pruned: 1 });
    expect((await all()).map((e) => e.id)).not.toContain(first.id);
  }, 90_000);
});
