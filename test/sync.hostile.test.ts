import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { connect } from '../src/db/connect.js';
import { lockHost } from '../src/ingest/sync/sync-run.js';
import { until } from './support/background-cli.js';
import { corpdata } from './support/cli.js';
import { dialects } from './support/dialects.js';
import { type ListedReport, SPANISH_REPORTS, spanishIndexPage, spanishListing } from './support/esef-fixtures.js';
import { closedPortUrl } from './support/flaky-server.js';
import { type HostileServer, startHostileServer, trickle } from './support/hostile-server.js';
import { startSecServer } from './support/sec-server.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

const CATALOG = fileURLToPath(new URL('./fixtures/esef-bundle', import.meta.url));
const SEC_ROOT = fileURLToPath(new URL('./fixtures/sec-sync', import.meta.url));
const TICKERS = join(SEC_ROOT, 'files/company_tickers_exchange.json');
const UA = 'corpdata tests admin@example.com';
const ENDESA_DIR = '/549300LHK07F2CHV4X31/2023-12-31/ESEF/ES/0';

/** Every file under `dir` with a digest of its content and its mtime: what "untouched" means. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else out[path] = `${createHash('sha256').update(readFileSync(path)).digest('hex')} ${statSync(path).mtimeMs}`;
    }
  };
  walk(dir);
  return out;
}

/** An Endesa listing (a catalog company, so the sync fetches it) whose `json_url` is `jsonUrl`. */
function endesaListing(fxoId: string, jsonUrl: string): ListedReport {
  const endesa = spanishListing().find((l) => l.lei === '549300LHK07F2CHV4X31') as ListedReport;
  return { ...endesa, filing_id: 900_000 + fxoId.length, fxo_id: fxoId, period_end: '2023-12-31', json_url: jsonUrl };
}

/**
 * A hostile or absent data source cannot reach past `sync` (design §15): each attack replayed
 * through `bin/corpdata` against a local server. Names it sends do not become paths, redirects do
 * not leave its origin, a bad listing costs only itself, a trickling body ends within its budget,
 * a dead or zombie holder's lease is taken over, and an unreachable source fails the run.
 */
describe.each(dialects())('sync against a hostile source (%s)', (dialect) => {
  const databases: TestDatabase[] = [];
  const servers: HostileServer[] = [];
  const serve = async (...args: Parameters<typeof startHostileServer>) => {
    const s = await startHostileServer(...args);
    servers.push(s);
    return s;
  };
  const fresh = async (catalog: boolean) => {
    const d = await createTestDatabase(dialect);
    databases.push(d);
    if (catalog) {
      const r = await corpdata(['import', CATALOG], { CORPDATA_DATABASE: d.url, CORPDATA_DEMO: 'off' });
      expect(r.code, r.stderr).toBe(0);
    }
    return d;
  };
  const env = (database: TestDatabase, base: string, extra: Record<string, string> = {}) => ({
    CORPDATA_DATABASE: database.url,
    CORPDATA_DEMO: 'off',
    CORPDATA_SEC_BASE_URL: base,
    CORPDATA_SEC_USER_AGENT: UA,
    CORPDATA_ESEF_BASE_URL: base,
    CORPDATA_SYNC_RETRY_BASE_MS: '50',
    ...extra,
  });
  /** A filings.xbrl.org whose ES index lists `listed`, and whose other paths `other` answers. */
  const esefSource = (listed: () => ListedReport[], other: Parameters<typeof startHostileServer>[0]) =>
    serve((req, res) => {
      if ((req.url ?? '').startsWith('/api/filings')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(spanishIndexPage(listed())));
      } else other?.(req, res);
    });

  afterAll(async () => {
    for (const s of servers) await s.close();
    for (const d of databases) await d.drop();
  }, 120_000);

  it('writes a report under a name of its own: a json_url of ..%2F segments touches no file outside its folder', async () => {
    const root = mkdtempSync(join(tmpdir(), 'corpdata-hostile-'));
    onTestFinished(() => rmSync(root, { recursive: true, force: true }));
    const tmp = join(root, 'work', 'tmp');
    mkdirSync(tmp, { recursive: true });
    // Where ../../../another/folder/victim.db leads from the report's folder, tmp/corpdata-sync-*/r0.
    const victim = join(root, 'work', 'another', 'folder', 'victim.db');
    mkdirSync(join(root, 'work', 'another', 'folder'), { recursive: true });
    writeFileSync(victim, 'a database the sync must not touch');
    const before = snapshot(root);
    const hostilePath = `${ENDESA_DIR}/..%2F..%2F..%2Fanother%2Ffolder%2Fvictim.db`;
    const source = await esefSource(
      () => [endesaListing('hostile-name', hostilePath)],
      (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('HOSTILE BODY'),
    );
    const database = await fresh(true);
    const r = await corpdata(['sync', 'esef', '--country', 'ES'], env(database, source.url, { TMPDIR: tmp }));
    expect(r.code, r.stderr).toBe(0);
    // The attack was delivered: the hostile body came, was refused by the ingest, and went.
    expect(source.paths).toContain(hostilePath);
    expect(r.json()).toMatchObject({ reports: { to_fetch: 1, fetched: 0 }, files_refused: 1 });
    expect(readFileSync(victim, 'utf8')).toBe('a database the sync must not touch');
    // Nothing created, changed or deleted anywhere under the root; the sync's own folder is gone.
    expect(snapshot(root)).toEqual(before);
    expect(readdirSync(tmp)).toEqual([]);
  }, 120_000);

  it('follows a redirect only within the configured origin, at most 5 times: another port gets no connection', async () => {
    const trap = await serve();
    const tickers = readFileSync(TICKERS);
    const source = await serve((req, res) => {
      const path = req.url ?? '/';
      if (path === '/files/company_tickers_exchange.json') res.writeHead(302, { location: '/moved/tickers.json' }).end();
      else if (path === '/moved/tickers.json') res.writeHead(200, { 'content-type': 'application/json' }).end(tickers);
      // Apple's companyfacts: to another port of this machine (a database, an admin page).
      else if (path.startsWith('/api/xbrl/companyfacts/CIK0000320193')) res.writeHead(302, { location: `${trap.url}/x` }).end();
      // Apple's submissions: same port, another host name, which is another origin.
      else if (path.startsWith('/submissions/CIK0000320193'))
        res.writeHead(307, { location: `http://localhost:${trap.port}/y` }).end();
      // Amazon's companyfacts: round and round within the origin.
      else if (path.startsWith('/api/xbrl/companyfacts/CIK0001018724'))
        res.writeHead(301, { location: `${path.split('?')[0]}?again=${path.length}` }).end();
      else res.writeHead(404).end();
    });
    const database = await fresh(false);
    const r = await corpdata(['sync', 'sec', '--ciks', '320193,1018724'], env(database, source.url));
    expect(r.code, r.stderr).toBe(0);
    expect(trap.connections).toBe(0);
    const s = r.json<{ requests: Record<string, number>; tickers: unknown }>();
    // The ticker file came through its same-origin redirect, and was ingested.
    expect(s.tickers).not.toBeNull();
    expect(s.requests).toMatchObject({ downloaded: 1, redirects_refused: 3, retried: 0 });
    expect(source.paths.filter((p) => p.startsWith('/api/xbrl/companyfacts/CIK0001018724'))).toHaveLength(6);
    expect(r.stderr).toContain(`redirected to another origin ("${trap.url}"); not followed`);
    expect(r.stderr).toContain(`redirected to another origin ("http://localhost:${trap.port}"); not followed`);
    expect(r.stderr).toContain('redirected more than 5 times; not followed');

    // The ESEF report fetch alike.
    const esef = await esefSource(
      () => [endesaListing('redirected', `${ENDESA_DIR}/redirected.json`)],
      (_req, res) => res.writeHead(302, { location: `${trap.url}/report.json` }).end(),
    );
    const e = await corpdata(['sync', 'esef', '--country', 'ES'], env(await fresh(true), esef.url));
    expect(e.code, e.stderr).toBe(0);
    expect(e.json()).toMatchObject({ requests: { redirects_refused: 1 }, reports: { to_fetch: 1, fetched: 0 } });
    expect(trap.connections).toBe(0);
  }, 120_000);

  it('skips and counts a listing whose json_url does not decode, and goes on, in this sync and the next', async () => {
    const real = spanishListing().filter((l) => l.lei === '549300LHK07F2CHV4X31');
    const bad = endesaListing('malformed', `${ENDESA_DIR}/%E0%A4%A.json`);
    let listed: ListedReport[] = [...real, bad];
    const source = await esefSource(
      () => listed,
      (req, res) => {
        const found = real.find((l) => l.json_url === req.url);
        if (found?.fixture === undefined) res.writeHead(404).end();
        else res.writeHead(200, { 'content-type': 'application/json' }).end(readFileSync(join(SPANISH_REPORTS, found.fixture)));
      },
    );
    const database = await fresh(true);
    const r = await corpdata(['sync', 'esef', '--country', 'ES'], env(database, source.url));
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ reports: { fetched: 1, skipped: { malformed_json_url: 1 } }, files_refused: 0 });
    expect(r.stderr).toContain('sync esef: report "malformed" skipped (malformed_json_url)');
    expect(source.paths.some((p) => p.includes('%E0%A4%A'))).toBe(false);

    // Stored in the index now: a later sync, --refetch and a source listing nothing included, goes on.
    listed = [];
    for (const args of [[], ['--refetch']]) {
      const next = await corpdata(['sync', 'esef', '--country', 'ES', ...args], env(database, source.url));
      expect(next.code, next.stderr).toBe(0);
      expect(next.json()).toMatchObject({ reports: { skipped: { malformed_json_url: 1 } } });
    }
  }, 120_000);

  it('gives a file sent a byte a second up within its time budget, and a sync within its own', async () => {
    const slow = await serve((_req, res) => trickle(res));
    const database = await fresh(false);
    const started = Date.now();
    const r = await corpdata(['sync', 'sec'], env(database, slow.url, { CORPDATA_SYNC_FILE_BUDGET_MS: '3000' }));
    // Start-up and migration take a few seconds; 5 tries of 300 s each would take 25 minutes.
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(r.json()).toMatchObject({ requests: { over_budget: 1, sent: 1, given_up: 0 } });
    expect(r.stderr).toContain('over its time budget of 3 s (CORPDATA_SYNC_FILE_BUDGET_MS); given up');
    // Nothing came back at all: the run failed.
    expect(r.code).toBe(69);

    // The ticker file comes; every filer's files trickle: the run's budget ends the sync.
    const tickers = readFileSync(TICKERS);
    const mixed = await serve((req, res) => {
      if (req.url === '/files/company_tickers_exchange.json')
        res.writeHead(200, { 'content-type': 'application/json' }).end(tickers);
      else trickle(res);
    });
    const run = Date.now();
    const all = await corpdata(
      ['sync', 'sec', '--all'],
      env(await fresh(false), mixed.url, { CORPDATA_SYNC_RUN_BUDGET_MS: '4000', CORPDATA_SYNC_BATCH: '1' }),
    );
    expect(Date.now() - run).toBeLessThan(25_000);
    expect(all.code, all.stderr).toBe(0);
    const s = all.json<{ filers: number; requests: Record<string, number> }>();
    // Six filers, one a batch: the first one's companyfacts outlives the run, its submissions are
    // not asked for, and no further filer is.
    expect(s.filers).toBe(6);
    expect(s.requests).toMatchObject({ downloaded: 1, over_budget: 2, sent: 2 });
    expect(all.stderr).toContain("the sync's time budget of 4 s (CORPDATA_SYNC_RUN_BUDGET_MS) is spent");
    expect(all.stderr).toContain('sync sec: the time budget of this sync is spent; 5 filers left for the next sync');
  }, 120_000);

  it("takes over a lease whose holder on this host is a zombie or gone, and not a live one's", async () => {
    const server = await startSecServer({ root: SEC_ROOT });
    onTestFinished(() => server.close());
    const database = await fresh(false);
    const sync = () => corpdata(['sync', 'sec'], env(database, server.url));
    const migrated = await sync();
    expect(migrated.code, migrated.stderr).toBe(0);

    // A child that ends once its shell became `sleep`, which never reaps it: a zombie while `sleep` runs.
    const parent: ChildProcess = spawn('sh', ['-c', 'sleep 1 & echo $!; exec sleep 60'], { stdio: ['ignore', 'pipe', 'ignore'] });
    onTestFinished(() => {
      parent.kill('SIGKILL');
    });
    let out = '';
    parent.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    await until(() => /^[0-9]+\n/.test(out), 'the zombie to be made');
    const zombie = Number(out.trim());
    await until(() => {
      const stat = readFileSync(`/proc/${zombie}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
    }, 'the child to be a zombie');
    const gone = await new Promise<number>((resolve) => {
      const child = spawn('true');
      child.on('exit', () => resolve(child.pid ?? 0));
    });

    const db = connect(database.config);
    try {
      const plant = async (pid: number) => {
        await db.kysely.deleteFrom('sync_locks').execute();
        await db.kysely
          .insertInto('sync_locks')
          .values({
            name: 'sync',
            owner: `planted-${pid}`,
            host: lockHost(),
            pid,
            acquired_at: new Date().toISOString(),
            expires_at: new Date(Date.now() + 600_000).toISOString(),
          })
          .execute();
      };
      // A live holder of this host: its lease stands.
      await plant(parent.pid ?? 0);
      const busy = await sync();
      expect(busy.code).toBe(75);
      expect(busy.stderr).toContain(`another sync runs on this database (process ${parent.pid}`);
      for (const pid of [zombie, gone]) {
        await plant(pid);
        const r = await sync();
        expect(r.code, r.stderr).toBe(0);
        expect(await db.kysely.selectFrom('sync_locks').selectAll().execute()).toEqual([]);
      }
    } finally {
      await db.close();
    }
  }, 120_000);

  it('exits non-zero, saying so, when the source is unreachable and nothing was fetched', async () => {
    const closed = await closedPortUrl();
    const database = await fresh(true);
    const sec = await corpdata(['sync', 'sec'], env(database, closed));
    expect(sec.code).toBe(69);
    expect(sec.json()).toMatchObject({ requests: { sent: 5, given_up: 1, downloaded: 0 } });
    expect(sec.stderr).toContain('corpdata: sync: every request failed (1) and nothing was fetched: is the source reachable?');
    const esef = await corpdata(['sync', 'esef', '--country', 'ES'], env(database, closed));
    expect(esef.code).toBe(69);
    expect(esef.stderr).toContain('corpdata: sync: every request failed (1) and nothing was fetched');
  }, 120_000);
});
