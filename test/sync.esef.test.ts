import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { connect } from '../src/db/connect.js';
import { LINE_ITEM_TABLES } from '../src/db/schema.js';
import { startCorpdata, until } from './support/background-cli.js';
import { corpdata } from './support/cli.js';
import { dialects } from './support/dialects.js';
import {
  EE_PAGES,
  ERROR_500,
  GB_PAGE,
  KAINOS_REPORTS,
  SPANISH_REPORTS,
  spanishIndexPage,
  spanishListing,
} from './support/esef-fixtures.js';
import { type EsefServer, type EsefServerOptions, startEsefServer } from './support/esef-server.js';
import { peakPerSecond } from './support/source-server.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

const CATALOG = fileURLToPath(new URL('./fixtures/esef-bundle', import.meta.url));
const KAINOS_JSON = '/213800H2PQMIF3OVZY47/2022-03-31/ESEF/GB/0/213800H2PQMIF3OVZY47-2022-03-31-T01.json';
const INDITEX_JSON = '/549300TTCXZOGZM2EY83/2025-01-31/ESEF/ES/0/549300TTCXZOGZM2EY83-20250131-0-en.json';
const COUNTRIES = 'ES,GB,EE';

interface Summary {
  dry_run: boolean;
  index_pages: number;
  index: { added: number; updated: number; unchanged: number } | null;
  requests: Record<string, number>;
  reports: { to_fetch: number; not_in_catalog: number; fetched: number; not_found: number; skipped: Record<string, number> };
  esef: { reports: number; data_points: number; documents: number };
  files_refused: number;
}

/** Every row of the tables the ingests write, in a fixed order: what "the same data" means. */
async function tables(database: TestDatabase) {
  const db = connect(database.config);
  try {
    const k = db.kysely;
    const rows = async (table: string, order: string) =>
      (await sql<Record<string, unknown>>`select * from ${sql.table(table)} order by ${sql.ref(order)}`.execute(k)).rows;
    return {
      companies: await rows('companies', 'company_id'),
      // When each was first served is the run's own (design §20.2).
      documents: (await rows('documents', 'document_id')).map(({ served_at: _, ...d }) => d),
      revenue_points: await rows('revenue_points', 'point_id'),
      net_income_points: await rows('net_income_points', 'point_id'),
      // Every line item's figures too (design §18): the sync fills each as the ingest does.
      line_items: Object.fromEntries(
        await Promise.all(LINE_ITEM_TABLES.map(async (t) => [t, await rows(t, 'point_id')] as const)),
      ),
      esef_filings: await rows('esef_filings', 'fxo_id'),
    };
  } finally {
    await db.close();
  }
}

async function syncedReports(database: TestDatabase): Promise<number> {
  const db = connect(database.config);
  try {
    const rows = await db.kysely
      .selectFrom('sync_files')
      .select('file_key')
      .where('source', '=', 'esef')
      .where('file_key', 'like', 'report/%')
      .execute();
    return rows.length;
  } catch {
    return 0; // not migrated yet
  } finally {
    await db.close();
  }
}

/**
 * `bin/corpdata sync esef` (design §15) against a replay of filings.xbrl.org: the recorded GB page
 * and the two recorded EE pages, the Spanish reports' index as their author recorded it, and the
 * real reports of test/fixtures/esef at their `json_url` paths.
 */
describe.each(dialects())('bin/corpdata sync esef (%s)', (dialect) => {
  const databases: TestDatabase[] = [];
  const servers: EsefServer[] = [];
  let dir: string;
  let pages: EsefServerOptions['pages'];
  let reports: Record<string, string>;
  let byHand: Awaited<ReturnType<typeof tables>>;

  const cli = (database: TestDatabase, args: string[]) =>
    corpdata(args, { CORPDATA_DATABASE: database.url, CORPDATA_DEMO: 'off' });
  /** A database holding the catalog the reports' companies are in, and nothing else. */
  const fresh = async () => {
    const d = await createTestDatabase(dialect);
    databases.push(d);
    const imported = await cli(d, ['import', CATALOG]);
    expect(imported.code, imported.stderr).toBe(0);
    return d;
  };
  const serve = async (options: Partial<EsefServerOptions> = {}) => {
    const s = await startEsefServer({ pages, reports, ...options });
    servers.push(s);
    return s;
  };
  const env = (database: TestDatabase, server: EsefServer, extra: Record<string, string> = {}) => ({
    CORPDATA_DATABASE: database.url,
    CORPDATA_DEMO: 'off',
    CORPDATA_ESEF_BASE_URL: server.url,
    CORPDATA_SYNC_RETRY_BASE_MS: '50',
    ...extra,
  });
  const sync = (args: string[], database: TestDatabase, server: EsefServer, extra: Record<string, string> = {}) =>
    corpdata(['sync', 'esef', ...args], env(database, server, extra));
  const indexRequests = (server: EsefServer) => server.seen.filter((q) => q.path.startsWith('/api/filings'));

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'corpdata-sync-esef-'));
    const esPage = join(dir, 'es-page.json');
    writeFileSync(esPage, JSON.stringify(spanishIndexPage()));
    pages = { ES: [readFileSync(esPage)], GB: [readFileSync(GB_PAGE)], EE: EE_PAGES.map((p) => readFileSync(p)) };
    reports = { [KAINOS_JSON]: join(KAINOS_REPORTS, 'kainos_2022.json') };
    for (const listed of spanishListing()) {
      if (listed.fixture !== undefined) reports[listed.json_url] = join(SPANISH_REPORTS, listed.fixture);
    }
    expect(reports[INDITEX_JSON]).toBeDefined();

    // The same files by hand, as the operator would: the index pages, then the reports of the
    // catalog's filers, which a sync fetches (another filer's report would add its company, design §19.1).
    const d = await fresh();
    const catalogReports = ['endesa_2024.json', 'inditex_fy2024.json'].map((f) => join(SPANISH_REPORTS, f));
    for (const r of [
      await cli(d, ['ingest', 'esef-index', esPage, GB_PAGE, ...EE_PAGES]),
      await cli(d, ['ingest', 'esef', ...catalogReports, KAINOS_REPORTS]),
    ]) {
      expect(r.code, r.stderr).toBe(0);
    }
    byHand = await tables(d);
    // Endesa, Inditex (FY ending January) and Kainos (FY ending March): revenue and net income.
    expect(byHand.documents).toHaveLength(3);
    expect(byHand.revenue_points.length).toBeGreaterThanOrEqual(5);
    expect(byHand.net_income_points.length).toBeGreaterThanOrEqual(3);
  }, 120_000);
  afterAll(async () => {
    for (const s of servers) await s.close();
    for (const d of databases) await d.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('ends with the data of ingesting the same files by hand, through failed requests tried again', async () => {
    // The GB index's first page fails once with the index's own 500 document; Inditex's report twice.
    const server = await serve({
      failBody: readFileSync(ERROR_500),
      fail: (path, nth) =>
        (path.startsWith('/api/filings?filter[country]=GB') && !path.includes('page[number]') && nth === 1) ||
        (path === INDITEX_JSON && nth <= 2)
          ? 500
          : null,
    });
    const synced = await fresh();
    const r = await sync(['--country', COUNTRIES], synced, server);
    expect(r.code, r.stderr).toBe(0);
    const s = r.json<Summary>();
    // ES: one page; GB: its page and the empty one after it; EE: its two pages and the empty third.
    expect(s.index_pages).toBe(6);
    expect(s.index).toMatchObject({ added: 19, updated: 0 });
    // Endesa, Inditex, Kainos fetched; the filers no catalog company is (or two are: Amper) are not.
    expect(s.reports).toEqual({ to_fetch: 3, not_in_catalog: 12, fetched: 3, not_found: 0, skipped: {} });
    expect(s.requests).toMatchObject({ downloaded: 9, retried: 3, given_up: 0, not_modified: 0 });
    expect(server.count(INDITEX_JSON)).toBe(3);
    expect(s.files_refused).toBe(0);
    const lineItems = Object.values(byHand.line_items).reduce((n, rows) => n + rows.length, 0);
    expect(lineItems).toBeGreaterThan(0);
    expect(s.esef.data_points).toBe(byHand.revenue_points.length + byHand.net_income_points.length + lineItems);
    expect(await tables(synced)).toEqual(byHand);
    // The documents link filings.xbrl.org, where a buyer can follow them, not the base synced from.
    for (const d of byHand.documents) expect(String(d.source_url)).toMatch(/^https:\/\/filings\.xbrl\.org\//);
    // Asked as design §15 says: per country, newest first, with entities, following links.next.
    const index = indexRequests(server).map((q) => q.path);
    expect(index).toContain('/api/filings?filter[country]=ES&sort=-date_added&include=entity&page[size]=100');
    expect(index.some((p) => p.includes('filter[country]=EE') && p.includes('page[number]=3'))).toBe(true);
    // Polite: a User-Agent on every request, at most 5 a second, so never a 429.
    expect(server.seen.every((q) => (q.userAgent ?? '').startsWith('corpdata'))).toBe(true);
    expect(server.seen.filter((q) => q.status === 429)).toEqual([]);
    expect(peakPerSecond(server)).toBeLessThanOrEqual(5);
    expect(r.stderr).toContain(': answered 500; try 2 of 5');
    expect(r.stderr).toContain('sync esef: 3 of 3 reports, 3 ingested');
  });

  it('fetches nothing the second time: each first index page answers 304; --refetch changes nothing', async () => {
    const synced = await fresh();
    expect((await sync(['--country', COUNTRIES], synced, await serve())).code).toBe(0);
    const server = await serve();
    const r = await sync(['--country', COUNTRIES], synced, server);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json<Summary>()).toMatchObject({
      index_pages: 0,
      index: null,
      reports: { to_fetch: 0, fetched: 0 },
      requests: { sent: 3, not_modified: 3, downloaded: 0, bytes: 0 },
    });
    expect(server.seen.every((q) => q.conditional && q.status === 304)).toBe(true);
    expect(r.stderr).toContain('GB: the index lists nothing new');
    expect(await tables(synced)).toEqual(byHand);

    const again = await sync(['--refetch', '--country', COUNTRIES], synced, server);
    expect(again.code, again.stderr).toBe(0);
    expect(again.json<Summary>()).toMatchObject({
      index_pages: 6,
      index: { added: 0, updated: 0, unchanged: 19 },
      reports: { fetched: 3 },
      esef: { data_points: 0, documents: 0 },
    });
    expect(await tables(synced)).toEqual(byHand);
  });

  it('--since leaves reports added before it; a later sync without it fetches them from the stored index', async () => {
    const server = await serve();
    const database = await fresh();
    // Kainos's report was added on 2022-08-02; the other four GB reports in 2023.
    const recent = await sync(['--country', 'GB', '--since', '2023-01-01'], database, server);
    expect(recent.code, recent.stderr).toBe(0);
    expect(recent.json<Summary>()).toMatchObject({ index_pages: 2, reports: { to_fetch: 0, not_in_catalog: 4, fetched: 0 } });
    expect(server.count(KAINOS_JSON)).toBe(0);
    expect((await tables(database)).revenue_points).toEqual([]);

    const all = await sync(['--country', 'GB'], database, server);
    expect(all.code, all.stderr).toBe(0);
    // No whole walk went in before, so the index is walked to its end (--since may have cut it
    // short); Kainos's report, stored in the index by then, is fetched.
    expect(all.json<Summary>()).toMatchObject({ index_pages: 2, reports: { to_fetch: 1, fetched: 1 } });
    const kainosId = byHand.companies.find((c) => c.name === 'Kainos Group plc')?.company_id;
    const kainos = byHand.revenue_points.filter((p) => p.company_id === kainosId);
    expect(kainos.length).toBeGreaterThan(0);
    expect((await tables(database)).revenue_points).toEqual(kainos);
  });

  it('resumes after a SIGKILL mid-sync, where it stopped, without a duplicate', async () => {
    // Slow reports, one a batch: the sync is killed after its first report went in.
    const server = await serve({ delayMs: (path) => (path.startsWith('/api/') ? 0 : 1000) });
    const database = await fresh();
    const tmp = mkdtempSync(join(tmpdir(), 'corpdata-killed-'));
    onTestFinished(() => rmSync(tmp, { recursive: true, force: true }));
    const killed = startCorpdata(
      ['sync', 'esef', '--country', COUNTRIES],
      env(database, server, { CORPDATA_SYNC_BATCH: '1', TMPDIR: tmp }),
    );
    await until(async () => (await syncedReports(database)) >= 1, 'a report to be synced');
    killed.child.kill('SIGKILL');
    const end = await killed.exited;
    expect(end.signal).toBe('SIGKILL');
    expect(readdirSync(tmp).filter((f) => f.startsWith('corpdata-sync-'))).toHaveLength(1);
    expect(await syncedReports(database)).toBeLessThan(3);
    const requested = new Set(server.seen.filter((q) => !q.path.startsWith('/api/')).map((q) => q.path));

    const r = await sync(['--country', COUNTRIES], database, server, { CORPDATA_SYNC_BATCH: '1' });
    expect(r.code, r.stderr).toBe(0);
    const s = r.json<Summary>();
    // The index was in: nothing new on it. The report recorded is not fetched again; the rest are.
    expect(s.index).toBeNull();
    expect(s.reports.fetched).toBe(3 - 1);
    const first = [...requested][0] as string;
    expect(server.count(first)).toBe(1);
    expect(await tables(database)).toEqual(byHand);
  });

  it('honours Retry-After when the source answers 429', async () => {
    // A source stricter than the sync's pace: two requests a second.
    const server = await serve({ limitPerSecond: 2, retryAfterSeconds: 1 });
    const database = await fresh();
    const r = await sync(['--country', 'ES,GB'], database, server);
    expect(r.code, r.stderr).toBe(0);
    const throttled = server.seen.filter((q) => q.status === 429);
    expect(throttled.length).toBeGreaterThan(0);
    expect(r.json<Summary>()).toMatchObject({ requests: { given_up: 0 }, reports: { fetched: 3 } });
    for (const t of throttled) {
      const next = server.seen.find((q) => q.path === t.path && q.at > t.at);
      expect(next, t.path).toBeDefined();
      expect((next?.at ?? 0) - t.at).toBeGreaterThanOrEqual(990);
    }
    const kainos = byHand.companies.find((c) => c.name === 'Kainos Group plc')?.company_id;
    const synced = await tables(database);
    expect(synced.revenue_points).toEqual(byHand.revenue_points);
    expect(synced.revenue_points.some((p) => p.company_id === kainos)).toBe(true);
  });

  it('a dry run reads the index and says what it would fetch, and writes nothing', async () => {
    const server = await serve();
    const database = await fresh();
    const r = await sync(['--dry-run', '--country', 'es,gb'], database, server);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json<Summary>()).toMatchObject({ dry_run: true, index_pages: 3, index: null, reports: { to_fetch: 3, fetched: 0 } });
    expect(server.seen.filter((q) => !q.path.startsWith('/api/'))).toEqual([]);
    expect(await tables(database)).toMatchObject({ esef_filings: [], documents: [], revenue_points: [] });
    expect(await syncedReports(database)).toBe(0);
  });

  it('an index page the source refuses stops that walk; the next sync walks it again', async () => {
    // EE's second page answers 400 once: its first page is in, but not recorded as the walk's start.
    const failing = await serve({
      fail: (path, nth) => (path.includes('filter[country]=EE') && path.includes('page[number]=2') && nth === 1 ? 400 : null),
    });
    const database = await fresh();
    const r = await sync(['--country', 'EE'], database, failing);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json<Summary>()).toMatchObject({ index_pages: 1, index: { added: 3 }, requests: { refused: 1 } });
    expect(r.stderr).toMatch(/EE: index page .* answered 400; the walk stops here/);
    const next = await sync(['--country', 'EE'], database, failing);
    expect(next.code, next.stderr).toBe(0);
    // Walked again from its first page, unconditionally: the three reports of the second page are in.
    expect(next.json<Summary>()).toMatchObject({ index_pages: 3, index: { added: 3, unchanged: 3 } });
  });

  it('refuses a bad --country or --since before sending a request, and a second sync exits 75', async () => {
    const server = await serve();
    const database = await fresh();
    for (const [args, message] of [
      [['--country', 'ES,XX'], '--country: "XX" is not an ISO 3166 country code'],
      [['--country', ','], '--country needs at least one'],
      [['--since', '2024-02-30'], '--since: "2024-02-30" is not a date (YYYY-MM-DD)'],
    ] as const) {
      const r = await sync([...args], database, server);
      expect(r.code).not.toBe(0);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(message);
    }
    expect(server.seen).toEqual([]);

    const db = connect(database.config);
    try {
      await db.kysely
        .insertInto('sync_locks')
        .values({
          name: 'sync',
          owner: 'elsewhere',
          host: 'another-host',
          pid: 1,
          acquired_at: new Date().toISOString(),
          expires_at: new Date(Date.now() + 60_000).toISOString(),
        })
        .execute();
      const busy = await sync(['--country', 'ES'], database, server);
      expect(busy.code).toBe(75);
      expect(busy.stderr).toMatch(
        /^corpdata: another sync runs on this database \(process 1 on another-host, since .+\); try again later\n$/,
      );
      expect(server.seen).toEqual([]);
    } finally {
      await db.close();
    }
  });
});
