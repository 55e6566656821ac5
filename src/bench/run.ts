import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { createAccount } from '../accounts/accounts.js';
import { createKey } from '../auth/api-keys.js';
import { TEST_TOKEN } from '../auth/test-token.js';
import { DEMO_BUNDLE_DIR } from '../cli/open-database.js';
import { bundlesOf, subscriptionsOf } from '../datasets/dataset-list.js';
import { DATASETS } from '../datasets/registry.js';
import { connect } from '../db/connect.js';
import { migrate } from '../db/migrate.js';
import { FIRST_YEAR } from '../http/routes/history.js';
import { importBundle } from '../ingest/sources/bundle/import-bundle.js';
import { startThrowawayPostgres } from '../scratch/throwaway-postgres.js';
import { pgbenchDebit } from './pgbench.js';
import { benchSearch } from './search-bench.js';
import type { ServePairReady } from './serve-pair.js';

/**
 * `npm run bench`: first search in-process over generated catalogs (per query class, build time and
 * memory); then, over HTTP, the billed revenues path (an already-purchased company-period: auth,
 * resolution, one charging transaction), a search for `a` and the same revenues call with the test
 * token (no database: the request path's own cost), each against a bare Fastify route
 * exchanging the same bytes (asked with the same request headers, the key included; answering with
 * the same headers and a body of the same size), measured in the same run and alternated, so the
 * ratios mean something on a noisy machine. On PostgreSQL also, in the same run and on the same
 * throwaway server: pgbench debiting one account's row (the floor a billed call is compared with),
 * and the billed path on three instances of the app on one database against one instance.
 */
const SECRET = 'bench-secret-bench-secret-bench-secret';
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 20;
/** Alternating rounds; the median of each side is reported. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/** Catalog sizes of the in-process search benchmark; BENCH_SEARCH_SIZES= (empty) skips it. */
const SEARCH_SIZES = (process.env.BENCH_SEARCH_SIZES ?? '100000,1000000')
  .split(',')
  .filter((s) => s.trim() !== '')
  .map(Number);
/** BENCH_CPU_PROF=<dir>: the measured server writes a V8 CPU profile there when it stops. */
const PROFILE_ARGS = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
const SEARCH_PATH = '/api/v1/companies/search?query=a';
/** PostgreSQL: instances on one database compared with one (BENCH_INSTANCES=1 skips it). */
const INSTANCES = Number(process.env.BENCH_INSTANCES ?? 3);
/**
 * BENCH_RATE_LIMIT=N/s compares the billed path with rate limiting off and at that limit (high
 * enough never to refuse), two apps in one process on one database, alternated round by round.
 */
const RATE_LIMIT = process.env.BENCH_RATE_LIMIT;
/**
 * Which calls the HTTP rounds measure, each against its bare route: `billed`, `search`, `mock` (the
 * test-token call), comma-separated; all three by default. BENCH_CALLS=mock measures the request
 * path alone, without waiting for the billed rounds.
 */
const CALLS = new Set((process.env.BENCH_CALLS ?? 'billed,search,mock').split(',').map((c) => c.trim()));
/** The demo bundle by default; BENCH_BUNDLE names another. */
const BUNDLE = process.env.BENCH_BUNDLE ?? DEMO_BUNDLE_DIR;

async function prepare(databaseUrl: string): Promise<{ path: string; key: string; bytes: number }> {
  const config = databaseUrl.startsWith('sqlite:')
    ? ({ kind: 'sqlite', path: databaseUrl.slice(7) } as const)
    : ({ kind: 'postgres', url: databaseUrl } as const);
  const db = connect(config);
  await migrate(db);
  await importBundle(db.kysely, BUNDLE, bundlesOf(DATASETS));
  const target = await db.kysely
    .selectFrom('revenue_points as p')
    .innerJoin('listings as l', (j) => j.onRef('l.company_id', '=', 'p.company_id').on('l.is_primary', '=', 1))
    .select(['l.ticker', 'l.mic_code', 'p.reporting_period'])
    // A period the API can be asked for by its year (the demo also holds older filed years).
    .where('p.reporting_period', '>=', FIRST_YEAR)
    .orderBy('p.point_id')
    .executeTakeFirstOrThrow();
  const account = await createAccount(
    db.kysely,
    { email: 'bench@example.com', credits: 50_000_000, now: new Date() },
    subscriptionsOf(DATASETS),
  );
  const { api_key } = await createKey(db.kysely, {
    accountId: account.account_id,
    name: 'bench',
    secret: SECRET,
    now: new Date(),
  });
  await db.close();
  const path = `/api/v1/revenues?ticker=${encodeURIComponent(target.ticker)}&mic_code=${target.mic_code}&reporting_period=${target.reporting_period}`;
  return { path, key: api_key, bytes: 0 };
}

/**
 * The measured server logs to its standard output as in service, into /dev/null: writing the lines
 * is part of a request's cost, reading them is not. It says it is ready over the IPC channel.
 */
const SERVE_PAIR_STDIO: ['ignore', 'ignore', 'inherit', 'ipc'] = ['ignore', 'ignore', 'inherit', 'ipc'];

/** Headers Fastify sends anyway (a bare route too) are left out; the app's own ones are copied. */
const FRAMEWORK_HEADERS = new Set(['content-length', 'content-type', 'date', 'connection', 'keep-alive']);

/** The app's own headers of an answer, which the bare route sends too, so both send the same bytes. */
function appHeaders(headers: Headers): Record<string, string> {
  return Object.fromEntries([...headers].filter(([name]) => !FRAMEWORK_HEADERS.has(name)));
}

/** The share of the machine's CPU time left idle while `work` ran (all cores, every process). */
async function idleDuring<T>(work: () => Promise<T>): Promise<{ result: T; idle: number }> {
  const times = () =>
    cpus().reduce((t, c) => ({ idle: t.idle + c.times.idle, all: t.all + Object.values(c.times).reduce((a, b) => a + b, 0) }), {
      idle: 0,
      all: 0,
    });
  const before = times();
  const result = await work();
  const after = times();
  return { result, idle: (after.idle - before.idle) / Math.max(1, after.all - before.all) };
}

function cannon(url: string, key?: string): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        connections: CONNECTIONS,
        duration: DURATION_S,
        headers: key === undefined ? {} : { authorization: `Bearer ${key}` },
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  });
}

/**
 * The billed path with rate limiting off (the app on appPort) against the same app with limiting
 * at BENCH_RATE_LIMIT (on barePort), alternated round by round, each going first every other round.
 */
async function compareRateLimit(appPort: number, limitedPort: number, path: string, key: string, label: string): Promise<void> {
  await cannon(`http://127.0.0.1:${limitedPort}${path}`, key); // warm-up
  const off: number[] = [];
  const on: number[] = [];
  const offRound = async () => {
    const b = await cannon(`http://127.0.0.1:${appPort}${path}`, key);
    if (b.non2xx > 0 || b.errors > 0) throw new Error(`billed path: ${b.non2xx} non-2xx, ${b.errors} errors`);
    off.push(b.requests.average);
  };
  const onRound = async () => {
    const limited = await cannon(`http://127.0.0.1:${limitedPort}${path}`, key);
    if (limited.non2xx > 0 || limited.errors > 0) throw new Error(`rate-limited app: ${limited.non2xx} non-2xx`);
    on.push(limited.requests.average);
  };
  for (let round = 0; round < ROUNDS; round++) {
    // The second of a pair runs warmer: each goes first every other round.
    if (round % 2 === 1) {
      await onRound();
      await offRound();
    } else {
      await offRound();
      await onRound();
    }
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  // Each round pair ran back to back, under the same load: their ratios, not the means, are comparable.
  const ratios = off.map((o, i) => (on[i] ?? 0) / o).sort((a, b) => a - b);
  const median = ratios[Math.floor(ratios.length / 2)] ?? 0;
  process.stdout.write(`${label.padEnd(10)} median on/off of ${ratios.length} round pairs ${median.toFixed(3)}\n`);
  process.stdout.write(
    `${label.padEnd(10)} billed revenues (repeat), rate limit off ${mean(off).toFixed(0).padStart(7)} req/s | ${RATE_LIMIT} ${mean(on).toFixed(0).padStart(7)} req/s | on/off ${(mean(on) / mean(off)).toFixed(3)} | rounds off ${off.map((x) => x.toFixed(0)).join(', ')}; on ${on.map((x) => x.toFixed(0)).join(', ')}\n`,
  );
}

/**
 * Starts a serve-pair process (serve-pair.ts) and waits for its ports; rejected if it exits first
 * (a server that cannot start must fail the benchmark, not hang it).
 */
function startServePair(env: NodeJS.ProcessEnv, nodeArgs: readonly string[]): Promise<ServePairReady & { child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, fileURLToPath(new URL('./serve-pair.js', import.meta.url))], {
      env,
      stdio: SERVE_PAIR_STDIO,
    });
    const exited = (code: number | null) => reject(new Error(`bench server exited with ${code}`));
    child.once('exit', exited);
    child.once('message', (ready: ServePairReady) => {
      child.off('exit', exited);
      resolve({ ...ready, child });
    });
  });
}

/** Stops a serve-pair process and waits for its exit. */
async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exit = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exit;
}

async function measure(label: string, databaseUrl: string): Promise<void> {
  const { path, key } = await prepare(databaseUrl);
  const env = {
    ...process.env,
    CORPDATA_DATABASE: databaseUrl,
    CORPDATA_SECRET: SECRET,
    CORPDATA_DEMO: 'off',
    // The measured app runs without rate limiting (the service's default would refuse most of a
    // benchmark's calls with 429); BENCH_RATE_LIMIT compares a limited app against it.
    CORPDATA_RATE_LIMIT: 'off',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
  };
  // Buy the company-period once, so the benchmark measures the repeat (1 credit) path.
  const first = await (async () => {
    const server = await startServePair({ ...env, BENCH_BODY_BYTES: '0' }, PROFILE_ARGS);
    try {
      const call = (target: string, token = key) =>
        fetch(`http://127.0.0.1:${server.appPort}${target}`, { headers: { authorization: `Bearer ${token}` } });
      const bought = await call(path);
      const boughtText = await bought.text();
      if (bought.status !== 200) throw new Error(`target answered ${bought.status}: ${boughtText}`);
      // The repeat is what is measured: its headers (a cost of 1) are the ones the bare route copies.
      const res = await call(path);
      const search = await call(SEARCH_PATH);
      if (search.status !== 200) throw new Error(`search answered ${search.status}`);
      const mock = await call(path, TEST_TOKEN);
      if (mock.status !== 200) throw new Error(`test-token call answered ${mock.status}`);
      return {
        bytes: Buffer.byteLength(await res.text()),
        searchBytes: Buffer.byteLength(await search.text()),
        mockBytes: Buffer.byteLength(await mock.text()),
        headers: appHeaders(res.headers),
        searchHeaders: appHeaders(search.headers),
        mockHeaders: appHeaders(mock.headers),
      };
    } finally {
      await stopServer(server.child);
    }
  })();
  const compare = RATE_LIMIT === undefined ? {} : { BENCH_SECOND_RATE_LIMIT: RATE_LIMIT };
  const { child, appPort, barePort } = await startServePair(
    {
      ...env,
      ...compare,
      BENCH_BODY_BYTES: String(first.bytes),
      BENCH_SEARCH_BYTES: String(first.searchBytes),
      BENCH_BODY_HEADERS: JSON.stringify(first.headers),
      BENCH_SEARCH_HEADERS: JSON.stringify(first.searchHeaders),
      BENCH_MOCK_BYTES: String(first.mockBytes),
      BENCH_MOCK_HEADERS: JSON.stringify(first.mockHeaders),
    },
    PROFILE_ARGS,
  );
  const others: ChildProcess[] = [];
  const otherPorts: number[] = [];
  try {
    await cannon(`http://127.0.0.1:${appPort}${path}`, key); // warm-up
    if (RATE_LIMIT !== undefined) {
      await compareRateLimit(appPort, barePort, path, key, label);
      return;
    }
    if (CALLS.has('search')) await cannon(`http://127.0.0.1:${appPort}${SEARCH_PATH}`, key);
    if (CALLS.has('mock')) await cannon(`http://127.0.0.1:${appPort}${path}`, TEST_TOKEN);
    const rounds = {
      billed: [] as number[],
      bare: [] as number[],
      search: [] as number[],
      bareSearch: [] as number[],
      mock: [] as number[],
      bareMock: [] as number[],
    };
    for (let round = 0; round < ROUNDS; round++) {
      if (CALLS.has('billed')) {
        const b = await cannon(`http://127.0.0.1:${appPort}${path}`, key);
        if (b.non2xx > 0 || b.errors > 0) throw new Error(`billed path: ${b.non2xx} non-2xx, ${b.errors} errors`);
        rounds.billed.push(b.requests.average);
        rounds.bare.push((await cannon(`http://127.0.0.1:${barePort}/bare`, key)).requests.average);
      }
      if (CALLS.has('search')) {
        const s = await cannon(`http://127.0.0.1:${appPort}${SEARCH_PATH}`, key);
        if (s.non2xx > 0 || s.errors > 0) throw new Error(`search: ${s.non2xx} non-2xx, ${s.errors} errors`);
        rounds.search.push(s.requests.average);
        rounds.bareSearch.push((await cannon(`http://127.0.0.1:${barePort}/bare-search`, key)).requests.average);
      }
      if (CALLS.has('mock')) {
        // The test-token call: no database, so what it costs beyond a bare route is the request path's own.
        const m = await cannon(`http://127.0.0.1:${appPort}${path}`, TEST_TOKEN);
        if (m.non2xx > 0 || m.errors > 0) throw new Error(`test-token call: ${m.non2xx} non-2xx, ${m.errors} errors`);
        rounds.mock.push(m.requests.average);
        rounds.bareMock.push((await cannon(`http://127.0.0.1:${barePort}/bare-mock`, TEST_TOKEN)).requests.average);
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
    // Each pair of rounds ran back to back under the same load: the median of their ratios is the
    // figure that survives a machine whose load shifts during the run; the rounds are shown too.
    const line = (what: string, app: number[], bare: number[], bytes: number) =>
      `${label.padEnd(10)} ${what.padEnd(24)} ${median(app).toFixed(0).padStart(7)} req/s | bare route ${median(bare).toFixed(0).padStart(7)} req/s | ratio ${(median(app) / median(bare)).toFixed(2)}, median of round ratios ${median(app.map((a, i) => a / (bare[i] ?? a))).toFixed(2)} | body ${bytes} B, ${CONNECTIONS} connections, median of ${ROUNDS} alternating rounds of ${DURATION_S}s | rounds ${app.map((a, i) => `${a.toFixed(0)}/${(bare[i] ?? 0).toFixed(0)}`).join(' ')}\n`;
    if (CALLS.has('billed')) process.stdout.write(line('billed revenues (repeat)', rounds.billed, rounds.bare, first.bytes));
    if (CALLS.has('search')) process.stdout.write(line('search "a"', rounds.search, rounds.bareSearch, first.searchBytes));
    if (CALLS.has('mock')) process.stdout.write(line('test-token revenues', rounds.mock, rounds.bareMock, first.mockBytes));
    if (label !== 'postgres' || !CALLS.has('billed')) return;
    // Last, so that its hundred thousand updates of one row come after the app's rounds.
    const debit = async () => {
      const one = await pgbenchDebit(databaseUrl, 1, DURATION_S);
      const many = await pgbenchDebit(databaseUrl, CONNECTIONS, DURATION_S);
      process.stdout.write(
        `${label.padEnd(10)} pgbench one-row debit     1 client ${one.toFixed(0).padStart(7)} tx/s | ${CONNECTIONS} clients ${many.toFixed(0).padStart(7)} tx/s | billed revenues / ${CONNECTIONS} clients ${(median(rounds.billed) / many).toFixed(2)} | update accounts set balance = balance - 1 where account_id = ? and balance >= 1 (prepared), one row, same server\n`,
      );
    };
    if (INSTANCES < 2) return await debit();
    // More instances of the app on the same database, the same account and key; each asked by
    // CONNECTIONS connections at once, against the first instance alone, alternated.
    for (let i = 1; i < INSTANCES; i++) {
      const other = await startServePair(env, []);
      others.push(other.child);
      otherPorts.push(other.appPort);
      await cannon(`http://127.0.0.1:${other.appPort}${path}`, key); // warm-up
    }
    const ports = [appPort, ...otherPorts];
    const alone: number[] = [];
    const together: number[] = [];
    const idle = { alone: [] as number[], together: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      const one = await idleDuring(() => cannon(`http://127.0.0.1:${appPort}${path}`, key));
      alone.push(one.result.requests.average);
      idle.alone.push(one.idle);
      const all = await idleDuring(() => Promise.all(ports.map((port) => cannon(`http://127.0.0.1:${port}${path}`, key))));
      if (all.result.some((r) => r.non2xx > 0 || r.errors > 0)) throw new Error('billed path on several instances: errors');
      together.push(all.result.reduce((sum, r) => sum + r.requests.average, 0));
      idle.together.push(all.idle);
    }
    const percent = (x: number) => `${(100 * x).toFixed(0)} %`;
    process.stdout.write(
      `${label.padEnd(10)} billed revenues, ${ports.length} instances ${median(together).toFixed(0).padStart(7)} req/s | 1 instance ${median(alone).toFixed(0).padStart(7)} req/s | ratio ${(median(together) / median(alone)).toFixed(2)}, median of round ratios ${median(together.map((t, i) => t / (alone[i] ?? t))).toFixed(2)} | one account, ${CONNECTIONS} connections per instance | CPU idle ${percent(median(idle.together))} / ${percent(median(idle.alone))} | rounds ${together.map((t, i) => `${t.toFixed(0)}/${(alone[i] ?? 0).toFixed(0)}`).join(' ')}\n`,
    );
    await debit();
  } finally {
    for (const c of [child, ...others]) await stopServer(c);
  }
}

async function main(): Promise<void> {
  if (!existsSync(join(BUNDLE, 'companies.csv'))) throw new Error(`no bundle at ${BUNDLE}`);
  for (const size of SEARCH_SIZES) benchSearch(size, (line) => process.stdout.write(line));
  if (process.env.BENCH_SKIP_SQLITE !== '1') {
    const dir = mkdtempSync(join(tmpdir(), 'corpdata-bench-'));
    try {
      await measure('sqlite', `sqlite:${join(dir, 'bench.db')}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (process.env.BENCH_SKIP_POSTGRES === '1') return;
  // BENCH_PG_DURABLE=1: the throwaway server flushes every commit to disk before acknowledging it, as in service.
  const durable = process.env.BENCH_PG_DURABLE === '1';
  const server = process.env.CORPDATA_BENCH_PG_URL === undefined ? startThrowawayPostgres({ durable }) : undefined;
  const admin = process.env.CORPDATA_BENCH_PG_URL ?? server?.url ?? '';
  try {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    await client.query('drop database if exists corpdata_bench');
    await client.query('create database corpdata_bench');
    await client.end();
    const url = new URL(admin);
    url.pathname = '/corpdata_bench';
    await measure('postgres', url.toString());
  } finally {
    server?.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
