import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startThrowawayPostgres } from '../scratch/throwaway-postgres.js';
import { perCore, perCoreText } from './cpu-report.js';
import { type BenchDatabase, CALL_NAMES, type CallName, type HttpResults, httpBench } from './http-bench.js';
import { ingestBench } from './ingest-bench.js';
import { instancesBench } from './instances-bench.js';
import { pgbenchDebit } from './pgbench.js';
import { benchSearch } from './search-bench.js';
import type { Variant } from './served-app.js';

/**
 * `npm run bench`: first search in-process over generated catalogs (per query class, build time and
 * memory); then, over HTTP on SQLite and on a throwaway PostgreSQL, what a call costs: the billed
 * revenues call already purchased (auth, resolution, one charging transaction), a search for `a`
 * and the same revenues call with the test token (no database: the request path's own cost), each
 * beside a bare Fastify route in a process of its own answering the same status, headers and body.
 * Judged by CPU time per call (the app's process, and every process of the PostgreSQL server),
 * median of the rounds, which another job on the machine does not move as it moves req/s.
 */
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 20;
/** Catalog sizes of the in-process search benchmark; BENCH_SEARCH_SIZES= (empty) skips it. */
const SEARCH_SIZES = (process.env.BENCH_SEARCH_SIZES ?? '100000,1000000')
  .split(',')
  .filter((s) => s.trim() !== '')
  .map(Number);
/** BENCH_CPU_PROF=<dir>: the measured app (the first variant) writes a V8 CPU profile there when it stops. */
const PROFILE_ARGS = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
/**
 * Which calls are measured: `billed`, `gross-profit`, `eps-diluted`, `search`, `test-token` (also
 * spelt `mock`), and `ingest`, comma-separated; all by default.
 */
const CALL_LIST = (process.env.BENCH_CALLS ?? [...CALL_NAMES, 'ingest'].join(','))
  .split(',')
  .map((c) => (c.trim() === 'mock' ? 'test-token' : c.trim()));
const CALLS = new Set(CALL_LIST.filter((c): c is CallName => (CALL_NAMES as readonly string[]).includes(c)));
/** The billed call: a company-period of the demo, bought once before the repeat is measured. */
const BILLED_PATH = process.env.BENCH_BILLED_PATH ?? '/api/v1/revenues?ticker=AAPL&reporting_period=2025';
/** A line item's billed call: the same company-period as the revenues call's. */
const itemPath = (item: string) => `/api/v1/${item}${new URL(BILLED_PATH, 'http://bench').search}`;
const SEARCH_PATH = '/api/v1/companies/search?query=a';
/** PostgreSQL: this many instances of the app on one database against one (1, the default, skips it). */
const INSTANCES = Number(process.env.BENCH_INSTANCES ?? 1);
const CHECKOUT = fileURLToPath(new URL('../../', import.meta.url));
/**
 * The ingest measured: `bin/corpdata ingest sec-companyfacts` of this zip (by default the
 * 351-filer bulk zip of the reference data beside the checkout) into a fresh database, each variant
 * in turn, BENCH_INGEST_ROUNDS times (1); skipped where the zip is absent.
 */
const INGEST_ZIP = resolve(
  process.env.BENCH_INGEST_ZIP ?? join(CHECKOUT, '../shared/data/filings/sec-companyfacts-bulk/companyfacts-sp500-2025.zip'),
);
const INGEST_ROUNDS = Number(process.env.BENCH_INGEST_ROUNDS ?? 1);

/**
 * The products measured, each beside the same bare route: this checkout; BENCH_COMPARE=<checkout>
 * adds another built checkout (a version before a change), measured in the same rounds;
 * BENCH_RATE_LIMIT=N/s adds this checkout with that rate limit (high enough never to refuse).
 */
function variants(): Variant[] {
  const list: Variant[] = [{ label: 'app', checkout: CHECKOUT }];
  const compare = process.env.BENCH_COMPARE;
  if (compare !== undefined && compare !== '') list.push({ label: 'compared', checkout: resolve(compare) });
  const limit = process.env.BENCH_RATE_LIMIT;
  if (limit !== undefined && limit !== '')
    list.push({ label: `limit ${limit}`, checkout: CHECKOUT, env: { CORPDATA_RATE_LIMIT: limit } });
  return list;
}

const write = (line: string) => process.stdout.write(line);

function bench(database: BenchDatabase): Promise<HttpResults> {
  return httpBench(database, {
    variants: variants(),
    calls: CALLS,
    load: { connections: CONNECTIONS, seconds: DURATION_S, rounds: ROUNDS },
    billedPath: BILLED_PATH,
    itemPath,
    searchPath: SEARCH_PATH,
    nodeArgs: PROFILE_ARGS,
    write,
  });
}

/** The capacity a run implies: calls a second per core of the app and of the database, for each call. */
function capacity(dialect: string, results: HttpResults): void {
  for (const [call, sides] of results) {
    const app = sides.get('app');
    if (app === undefined) continue;
    const db = dialect === 'postgres' ? `, of PostgreSQL ${perCoreText(app.databaseUs).trim()} calls/s` : '';
    write(
      `${dialect.padEnd(9)} ${call.padEnd(14)} capacity: one core of the app ${Math.round(perCore(app.appUs))} calls/s${db}\n`,
    );
  }
}

/** The ingest of the bulk zip by every variant, when asked for and the zip is there. */
async function ingest(dialect: string, create: (index: number) => Promise<string>): Promise<void> {
  if (!CALL_LIST.includes('ingest')) return;
  if (!existsSync(INGEST_ZIP)) {
    write(`${dialect.padEnd(9)} ingest skipped: no ${INGEST_ZIP} (BENCH_INGEST_ZIP)\n`);
    return;
  }
  write(`${dialect.padEnd(9)} ingest of ${INGEST_ZIP}, median of ${INGEST_ROUNDS} round(s), variants alternated\n`);
  await ingestBench(dialect, variants(), create, INGEST_ZIP, INGEST_ROUNDS, write);
}

async function sqlite(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'corpdata-bench-'));
  try {
    const create = async (i: number) => `sqlite:${join(dir, `bench-${i}.db`)}`;
    const results = await bench({ dialect: 'sqlite', create });
    capacity('sqlite', results);
    await ingest('sqlite', (i) => create(100 + i));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function postgres(): Promise<void> {
  // BENCH_PG_DURABLE=1: the throwaway server flushes every commit to disk before acknowledging it, as in service.
  const server = startThrowawayPostgres({ durable: process.env.BENCH_PG_DURABLE === '1' });
  // Interrupted, the run leaves no server behind (it runs detached from this process).
  const interrupted = () => {
    server.stop();
    process.exit(130);
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  const admin = new URL(server.url);
  const urlOf = (name: string) => Object.assign(new URL(admin), { pathname: `/${name}` }).toString();
  try {
    const create = async (index: number) => {
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      try {
        await client.query(`create database corpdata_bench_${index}`);
      } finally {
        await client.end();
      }
      return urlOf(`corpdata_bench_${index}`);
    };
    const results = await bench({ dialect: 'postgres', create, port: Number(admin.port) });
    capacity('postgres', results);
    await ingest('postgres', (i) => create(100 + i));
    if (!CALLS.has('billed')) return;
    const url = urlOf('corpdata_bench_0');
    if (INSTANCES > 1)
      await instancesBench(
        { label: 'app', checkout: CHECKOUT },
        url,
        INSTANCES,
        { connections: CONNECTIONS, seconds: DURATION_S, rounds: ROUNDS },
        BILLED_PATH,
        Number(admin.port),
        write,
      );
    // Last, so that its updates of one row come after the app's rounds.
    const one = await pgbenchDebit(url, 1, DURATION_S);
    const many = await pgbenchDebit(url, CONNECTIONS, DURATION_S);
    write(
      `postgres  pgbench one-row debit: 1 client ${one.toFixed(0)} tx/s, ${CONNECTIONS} clients ${many.toFixed(0)} tx/s (update accounts set balance = balance - 1 where account_id = ? and balance >= 1, prepared, same server)\n`,
    );
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    server.stop();
  }
}

async function main(): Promise<void> {
  for (const size of SEARCH_SIZES) benchSearch(size, write);
  write(
    `CPU time per call (µs, median of ${ROUNDS} rounds of ${DURATION_S} s, ${CONNECTIONS} connections, sides alternated); req/s for reference\n`,
  );
  if (process.env.BENCH_SKIP_SQLITE !== '1') await sqlite();
  if (process.env.BENCH_SKIP_POSTGRES !== '1') await postgres();
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
