import { cpSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { connect } from '../src/db/connect.js';
import { startCorpdata, until } from './support/background-cli.js';
import { corpdata, ingestCli } from './support/cli.js';
import { dialects } from './support/dialects.js';
import { type SecServer, type SecServerOptions, startSecServer } from './support/sec-server.js';
import { peakPerSecond } from './support/source-server.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

const ROOT = fileURLToPath(new URL('./fixtures/sec-sync', import.meta.url));
const TICKERS = join(ROOT, 'files/company_tickers_exchange.json');
const FACTS_DIR = join(ROOT, 'api/xbrl/companyfacts');
const SUBMISSIONS_DIR = join(ROOT, 'submissions');
/** Apple, NextEra, Amazon, Alphabet, Boeing, Ford: in the ticker file. */
const KNOWN = ['320193', '753308', '1018724', '1652044', '12927', '37996'];
/**
 * The pages of older filings (`CIK##########-submissions-001.json`…) that the six submissions files
 * list: real SEC pages, not among the fixtures, so the server answers 404 for each.
 */
const LISTED_PAGES = 8;
/** Ford: a submissions file of seven annual filings. */
const FORD = '37996';
/** Lemonade: companyfacts only, and not in the ticker file. */
const LEMONADE = '1691421';
const UA = 'corpdata tests admin@example.com';
const factsPath = (cik: string) => `/api/xbrl/companyfacts/CIK${cik.padStart(10, '0')}.json`;
const submissionsPath = (cik: string) => `/submissions/CIK${cik.padStart(10, '0')}.json`;

interface Summary {
  filers: number;
  filers_not_in_catalog: number;
  requests: Record<string, number>;
  tickers: Record<string, unknown> | null;
  companyfacts: { data_points: number; documents: number };
  submissions: { main_documents_recorded: number };
  files_refused: number;
}

/** Every row of the tables an ingest writes, in a fixed order: what "the same data" means. */
async function tables(database: TestDatabase) {
  const db = connect(database.config);
  try {
    const k = db.kysely;
    return {
      companies: await k.selectFrom('companies').selectAll().orderBy('company_id').execute(),
      listings: await k.selectFrom('listings').selectAll().orderBy('company_id').orderBy('ticker').orderBy('mic_code').execute(),
      // When each was first served is the run's own (design §20.2).
      documents: (await k.selectFrom('documents').selectAll().orderBy('document_id').execute()).map(
        ({ served_at: _, ...d }) => d,
      ),
      revenue_points: await k.selectFrom('revenue_points').selectAll().orderBy('point_id').execute(),
    };
  } finally {
    await db.close();
  }
}

async function syncedFiles(database: TestDatabase): Promise<number> {
  const db = connect(database.config);
  try {
    const row = await db.kysely
      .selectFrom('sync_files')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  } catch {
    return 0; // not migrated yet
  } finally {
    await db.close();
  }
}

describe.each(dialects())('bin/corpdata sync sec (%s)', (dialect) => {
  const databases: TestDatabase[] = [];
  const servers: SecServer[] = [];
  let byHand: Awaited<ReturnType<typeof tables>>;

  const fresh = async () => {
    const d = await createTestDatabase(dialect);
    databases.push(d);
    return d;
  };
  const serve = async (options: Partial<SecServerOptions> = {}) => {
    const s = await startSecServer({ root: ROOT, ...options });
    servers.push(s);
    return s;
  };
  const env = (database: TestDatabase, server: SecServer, extra: Record<string, string> = {}) => ({
    CORPDATA_DATABASE: database.url,
    CORPDATA_DEMO: 'off',
    CORPDATA_SEC_BASE_URL: server.url,
    CORPDATA_SEC_USER_AGENT: UA,
    CORPDATA_SYNC_RETRY_BASE_MS: '50',
    ...extra,
  });
  const sync = (args: string[], database: TestDatabase, server: SecServer, extra: Record<string, string> = {}) =>
    corpdata(['sync', 'sec', ...args], env(database, server, extra));

  beforeAll(async () => {
    // The same files, ingested by hand as the operator would: tickers, companyfacts, submissions.
    const d = await fresh();
    const run = (...args: string[]) => ingestCli(d.url, ...args);
    const files = (dir: string) => readdirSync(dir).map((f) => join(dir, f));
    for (const r of [
      await run('sec-tickers', TICKERS),
      // Lemonade's too would add it (design §19.1), but a sync fetches only the catalog's filers.
      await run('sec-companyfacts', ...files(FACTS_DIR).filter((f) => !f.includes(LEMONADE))),
      await run('sec-submissions', ...files(SUBMISSIONS_DIR)),
    ]) {
      expect(r.code, r.stderr).toBe(0);
    }
    byHand = await tables(d);
    expect(byHand.revenue_points.length).toBeGreaterThan(30);
    expect(byHand.documents.filter((x) => x.main_document_url !== null).length).toBeGreaterThan(10);
  }, 120_000);
  afterAll(async () => {
    for (const s of servers) await s.close();
    for (const d of databases) await d.drop();
  });

  it('refuses to start without a User-Agent naming a contact, before sending a request', async () => {
    const server = await serve();
    const database = await fresh();
    for (const ua of ['', 'corpdata']) {
      const r = await sync(['--all'], database, server, { CORPDATA_SEC_USER_AGENT: ua });
      expect(r.code).not.toBe(0);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^corpdata: sync sec needs CORPDATA_SEC_USER_AGENT.*admin@example\.com/);
      expect(r.stderr.split('\n').filter((l) => l !== '')).toHaveLength(1);
    }
    expect(server.seen).toHaveLength(0);
    // And the server stands for SEC's: a request without one is refused.
    expect((await fetch(`${server.url}${factsPath('320193')}`, { headers: { 'user-agent': '' } })).status).toBe(403);
  });

  it('ends with the data of ingesting the same files by hand, through failed requests tried again', async () => {
    // Apple's companyfacts fail once (503), Alphabet's submissions twice (500): tried again with backoff.
    const server = await serve({
      fail: (path, nth) =>
        (path === factsPath('320193') && nth === 1) || (path === submissionsPath('1652044') && nth <= 2) ? 503 : null,
    });
    const synced = await fresh();
    const r = await sync(['--ciks', [...KNOWN, LEMONADE].join(',')], synced, server);
    expect(r.code, r.stderr).toBe(0);
    const s = r.json<Summary>();
    // Lemonade, in no catalog company, is not fetched: a sync keeps the catalog's filers current.
    expect(s).toMatchObject({ filers: 6, filers_not_in_catalog: 1 });
    // The 8 pages of older filings the submissions files list are not among the fixtures: 404.
    expect(s.requests).toMatchObject({ downloaded: 13, not_found: LISTED_PAGES, retried: 3, given_up: 0, not_modified: 0 });
    expect(server.count(factsPath(LEMONADE))).toBe(0);
    expect(s.files_refused).toBe(0);
    expect(s.companyfacts.data_points).toBe(byHand.revenue_points.length);
    expect(await tables(synced)).toEqual(byHand);
    // Polite to the source: a User-Agent on every request, never past its rate, so never a 429.
    expect(server.seen.every((q) => q.userAgent === UA)).toBe(true);
    expect(server.seen.filter((q) => q.status === 429)).toEqual([]);
    expect(peakPerSecond(server)).toBeLessThanOrEqual(10);
    expect(r.stderr).toContain(`${factsPath('320193')}: answered 503; try 2 of 5`);
    expect(r.stderr).toMatch(/sync sec: 6 of 6 filers/);
  });

  it('downloads nothing the second time: every file answers 304 to its validators', async () => {
    const synced = await fresh();
    expect((await sync(['--ciks', KNOWN.join(',')], synced, await serve())).code).toBe(0);
    const server = await serve();
    const r = await sync(['--ciks', KNOWN.join(',')], synced, server);
    expect(r.code, r.stderr).toBe(0);
    const s = r.json<Summary>();
    expect(s.requests).toMatchObject({ sent: 13, downloaded: 0, not_modified: 13, bytes: 0 });
    expect(s.tickers).toBeNull();
    expect(server.seen.every((q) => q.conditional && q.status === 304)).toBe(true);
    expect(await tables(synced)).toEqual(byHand);
    // --refetch: everything downloaded and ingested again, unconditionally, and nothing changes.
    const again = await sync(['--refetch', '--ciks', KNOWN.join(',')], synced, server);
    expect(again.code, again.stderr).toBe(0);
    expect(again.json<Summary>()).toMatchObject({
      requests: { sent: 13 + LISTED_PAGES, downloaded: 13, not_found: LISTED_PAGES, not_modified: 0 },
      companyfacts: { data_points: 0, documents: 0 },
      submissions: { main_documents_recorded: 0 },
    });
    expect(server.seen.slice(13).every((q) => !q.conditional)).toBe(true);
    expect(await tables(synced)).toEqual(byHand);

    // A filer the catalog lacks is asked for only once the ticker file brings its company.
    const lemonade = await sync(['--ciks', LEMONADE], synced, server);
    expect(lemonade.json<Summary>()).toMatchObject({ filers: 0, filers_not_in_catalog: 1, requests: { sent: 1 } });
    expect(lemonade.stderr).toContain("1 of the CIKs asked for are no catalog company's: not fetched");
  });

  it('honours Retry-After when the source answers 429', async () => {
    // A source stricter than SEC: three requests a second.
    const server = await serve({ limitPerSecond: 3, retryAfterSeconds: 1 });
    const database = await fresh();
    const r = await sync(['--ciks', KNOWN.slice(0, 3).join(',')], database, server);
    expect(r.code, r.stderr).toBe(0);
    const throttled = server.seen.filter((q) => q.status === 429);
    expect(throttled.length).toBeGreaterThan(0);
    expect(r.json<Summary>().requests).toMatchObject({ downloaded: 7, given_up: 0 });
    for (const t of throttled) {
      const next = server.seen.find((q) => q.path === t.path && q.at > t.at);
      expect(next, t.path).toBeDefined();
      expect((next?.at ?? 0) - t.at).toBeGreaterThanOrEqual(990);
    }
  });

  it('gives a request up after 5 tries and goes on; the next sync fetches it', async () => {
    const failing = await serve({ fail: (path) => (path === factsPath('12927') ? 503 : null) });
    const database = await fresh();
    const r = await sync(['--ciks', KNOWN.join(',')], database, failing);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json<Summary>().requests).toMatchObject({ given_up: 1, retried: 4, downloaded: 12 });
    expect(failing.count(factsPath('12927'))).toBe(5);
    expect(r.stderr).toContain(`${factsPath('12927')}: answered 503; given up after 5 tries`);
    const boeing = byHand.companies.find((c) => c.cik === '0000012927')?.company_id;
    const points = (t: Awaited<ReturnType<typeof tables>>) => t.revenue_points.filter((p) => p.company_id === boeing).length;
    expect(points(byHand)).toBeGreaterThan(0);
    expect(points(await tables(database))).toBe(0);

    const r2 = await sync(['--ciks', KNOWN.join(',')], database, await serve());
    expect(r2.code, r2.stderr).toBe(0);
    // Boeing's companyfacts, and its submissions read whole again beside them.
    expect(r2.json<Summary>().requests).toMatchObject({ downloaded: 2, not_modified: 11 });
    expect(await tables(database)).toEqual(byHand);
  });

  it('runs one sync per database at a time: a second one exits 75', async () => {
    // Slow answers and a filer a batch: the first sync runs for seconds, the second starts meanwhile.
    const server = await serve({ delayMs: 400 });
    const database = await fresh();
    const first = startCorpdata(['sync', 'sec', '--ciks', KNOWN.join(',')], env(database, server, { CORPDATA_SYNC_BATCH: '1' }));
    await until(() => server.seen.length > 0, 'the first sync to start');
    const second = await sync(['--ciks', KNOWN.join(',')], database, server);
    expect(second.code).toBe(75);
    expect(second.stdout).toBe('');
    expect(second.stderr).toMatch(/^corpdata: another sync runs on this database \(process [0-9]+ on .+\); try again later\n$/);
    const done = await first.exited;
    expect(done.code, done.stderr).toBe(0);
    // Its lock given back, the next one runs.
    expect((await sync(['--ciks', KNOWN.join(',')], database, server)).code).toBe(0);

    // A lease held from another host waits until it lapses; then it is taken over.
    const db = connect(database.config);
    try {
      const lease = (expiresAt: Date) => ({
        name: 'sync',
        owner: 'elsewhere',
        host: 'another-host',
        pid: 1,
        acquired_at: new Date(Date.now() - 600_000).toISOString(),
        expires_at: expiresAt.toISOString(),
      });
      await db.kysely
        .insertInto('sync_locks')
        .values(lease(new Date(Date.now() + 60_000)))
        .execute();
      const held = await sync([], database, server);
      expect(held.code).toBe(75);
      expect(held.stderr).toContain('(process 1 on another-host, since');
      await db.kysely
        .updateTable('sync_locks')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .execute();
      const lapsed = await sync([], database, server);
      expect(lapsed.code, lapsed.stderr).toBe(0);
      expect(await db.kysely.selectFrom('sync_locks').selectAll().execute()).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it('resumes after a SIGKILL mid-sync, where it stopped, without a duplicate', async () => {
    const server = await serve({ delayMs: 200 });
    const database = await fresh();
    const args = ['sync', 'sec', '--ciks', [...KNOWN, LEMONADE].join(',')];
    // One filer a batch: recorded as synced filer by filer.
    // Its own TMPDIR: a killed sync leaves its download folder behind, and the test removes it.
    const tmp = mkdtempSync(join(tmpdir(), 'corpdata-killed-'));
    onTestFinished(() => rmSync(tmp, { recursive: true, force: true }));
    const killed = startCorpdata(args, env(database, server, { CORPDATA_SYNC_BATCH: '1', TMPDIR: tmp }));
    await until(async () => (await syncedFiles(database)) >= 5, 'two filers to be synced');
    killed.child.kill('SIGKILL');
    const end = await killed.exited;
    expect(end.signal).toBe('SIGKILL');
    expect(readdirSync(tmp).filter((f) => f.startsWith('corpdata-sync-'))).toHaveLength(1);
    const before = await syncedFiles(database);
    expect(before).toBeLessThan(13);

    const r = await sync(args.slice(2), database, server, { CORPDATA_SYNC_BATCH: '1' });
    expect(r.code, r.stderr).toBe(0);
    const s = r.json<Summary>();
    // What was recorded is not downloaded again; the rest is.
    expect(s.requests.not_modified).toBeGreaterThanOrEqual(before);
    expect(s.requests.downloaded).toBeLessThanOrEqual(13 - before);
    expect(await tables(database)).toEqual(byHand);
  });

  it('fetches a file once the source has it, and reads the submissions beside new figures whole', async () => {
    const root = mkdtempSync(join(tmpdir(), 'corpdata-sec-'));
    try {
      cpSync(ROOT, root, { recursive: true });
      const nextEra = join(root, factsPath('753308'));
      const held = `${nextEra}.held`;
      renameSync(nextEra, held);
      const server = await serve({ root });
      const database = await fresh();
      const first = await sync(['--ciks', KNOWN.join(',')], database, server);
      expect(first.json<Summary>().requests).toMatchObject({ downloaded: 12, not_found: 1 + LISTED_PAGES });
      renameSync(held, nextEra);
      const second = await sync(['--ciks', KNOWN.join(',')], database, server);
      expect(second.code, second.stderr).toBe(0);
      // NextEra's companyfacts, new, and its submissions asked for unconditionally beside them.
      expect(second.json<Summary>().requests).toMatchObject({ downloaded: 2, not_modified: 11 });
      expect(
        server.seen
          .filter((q) => q.status === 200)
          .slice(-2)
          .map((q) => [q.path, q.conditional]),
      ).toEqual([
        [factsPath('753308'), false],
        [submissionsPath('753308'), false],
      ]);
      const synced = await tables(database);
      expect(synced.revenue_points).toEqual(
        byHand.revenue_points.filter((p) => synced.companies.some((c) => c.company_id === p.company_id)),
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('reads the pages of older filings a submissions file lists as an ingest of the same files does: once each, none other, again until in', async () => {
    // Ford's real submissions, laid out as SEC lays out a large filer's: its four oldest filings
    // moved into a page of older filings, which the file lists (beside a name that is no page of Ford's).
    const root = mkdtempSync(join(tmpdir(), 'corpdata-sec-pages-'));
    try {
      cpSync(ROOT, root, { recursive: true });
      const main = join(root, submissionsPath(FORD));
      const pageName = `CIK${FORD.padStart(10, '0')}-submissions-001.json`;
      const file = JSON.parse(readFileSync(main, 'utf8')) as {
        filings: { recent: Record<string, unknown[]>; files: Array<Record<string, unknown>> };
      };
      const recent = file.filings.recent;
      const page = Object.fromEntries(Object.entries(recent).map(([k, v]) => [k, v.slice(3)]));
      file.filings.recent = Object.fromEntries(Object.entries(recent).map(([k, v]) => [k, v.slice(0, 3)]));
      const listing = { name: pageName, filingCount: 4, filingFrom: '2019-02-21', filingTo: '2022-02-04' };
      file.filings.files = [
        listing,
        { name: '../files/company_tickers_exchange.json', filingCount: 1, filingFrom: '2019-01-01', filingTo: '2019-01-01' },
        listing,
      ];
      writeFileSync(main, JSON.stringify(file));
      writeFileSync(join(root, 'submissions', pageName), JSON.stringify(page));
      const pagePath = `/submissions/${pageName}`;

      const byHandDb = await fresh();
      const run = (...args: string[]) => ingestCli(byHandDb.url, ...args);
      for (const r of [
        await run('sec-tickers', TICKERS),
        await run('sec-companyfacts', join(FACTS_DIR, `CIK${FORD.padStart(10, '0')}.json`)),
        await run('sec-submissions', main, join(root, 'submissions', pageName)),
      ]) {
        expect(r.code, r.stderr).toBe(0);
      }
      const expected = await tables(byHandDb);
      const moved = page.accessionNumber as string[];
      // The page's filings have their main documents, as from Ford's file unsplit: reading the page
      // is what links them (the one of the four whose figures are not ingested has none either way).
      const linked = (documents: typeof expected.documents) =>
        documents
          .filter((d) => moved.includes(d.accession ?? '') && d.main_document_url !== null)
          .map((d) => [d.accession, d.main_document_url]);
      expect(linked(expected.documents).length).toBeGreaterThan(0);
      expect(linked(expected.documents)).toEqual(linked(byHand.documents));

      // The page fails its first five requests: given up, so the file listing it is not recorded either.
      const server = await serve({ root, fail: (path, nth) => (path === pagePath && nth <= 5 ? 503 : null) });
      const database = await fresh();
      const first = await sync(['--ciks', FORD], database, server);
      expect(first.code, first.stderr).toBe(0);
      expect(first.json<Summary>().requests).toMatchObject({ downloaded: 3, given_up: 1, not_found: 0 });
      expect(server.seen.filter((q) => q.path.includes('company_tickers')).length).toBe(1);
      expect(first.stderr).toContain(
        'lists a page "../files/company_tickers_exchange.json" that is not one of this filer\'s: not fetched',
      );
      expect(linked((await tables(database)).documents)).toEqual([]);

      // The next sync reads the file again and, with it, the page (listed twice, asked for once).
      const second = await sync(['--ciks', FORD], database, server);
      expect(second.code, second.stderr).toBe(0);
      expect(second.json<Summary>().requests).toMatchObject({ sent: 4, not_modified: 2, downloaded: 2 });
      expect(server.count(pagePath)).toBe(6);
      expect(await tables(database)).toEqual(expected);

      // Unchanged: the submissions file answers 304, and its pages are not asked for again.
      const third = await sync(['--ciks', FORD], database, server);
      expect(third.json<Summary>().requests).toMatchObject({ sent: 3, not_modified: 3, downloaded: 0 });
      expect(server.count(pagePath)).toBe(6);
      // Read whole again (--refetch): the page with it.
      const again = await sync(['--refetch', '--ciks', FORD], database, server);
      expect(again.json<Summary>().requests).toMatchObject({ sent: 4, downloaded: 4 });
      expect(server.count(pagePath)).toBe(7);
      expect(await tables(database)).toEqual(expected);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('a dry run says what is new or changed, and writes nothing', async () => {
    const server = await serve();
    const database = await fresh();
    const r = await sync(['--dry-run', '--ciks', KNOWN.slice(0, 2).join(',')], database, server);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json<Summary>()).toMatchObject({
      dry_run: true,
      filers: 2,
      tickers: null,
      requests: { changed: 5, downloaded: 0, bytes: 0 },
      companyfacts: { data_points: 0 },
    });
    expect(await syncedFiles(database)).toBe(0);
    expect((await tables(database)).companies).toEqual([]);
  });

  it('syncs the catalog with --all, and the ticker file alone with neither option', async () => {
    const server = await serve();
    const database = await fresh();
    const tickersOnly = await sync([], database, server);
    expect(tickersOnly.code, tickersOnly.stderr).toBe(0);
    expect(tickersOnly.json<Summary>()).toMatchObject({ filers: 0, requests: { sent: 1, downloaded: 1 } });
    const all = await sync(['--all'], database, server);
    expect(all.code, all.stderr).toBe(0);
    expect(all.json<Summary>()).toMatchObject({ filers: 6, requests: { downloaded: 12, not_modified: 1 } });
    const both = await sync(['--all', '--ciks', '320193'], database, server);
    expect(both.code).not.toBe(0);
    expect(both.stderr).toContain('either --ciks or --all');
  });
});
