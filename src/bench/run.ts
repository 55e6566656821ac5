import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { createAccount } from '../accounts/accounts.js';
import { createKey } from '../auth/api-keys.js';
import { DEMO_BUNDLE_DIR } from '../cli/open-database.js';
import { connect } from '../db/connect.js';
import { migrate } from '../db/migrate.js';
import { importBundle } from '../ingest/bundle/import-bundle.js';
import { startThrowawayPostgres } from './throwaway-postgres.js';

/**
 * `npm run bench`: the billed revenues path (an already-purchased company-period: auth, resolution,
 * one charging transaction) against a bare Fastify route with a body of the same size, measured
 * in the same run and alternated, so the ratio means something on a noisy machine.
 */
const SECRET = 'bench-secret-bench-secret-bench-secret';
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 32;
/**
 * BENCH_RATE_LIMIT=N/s compares the billed path with rate limiting off and at that limit (high
 * enough never to refuse), two apps in one process on one database, alternated round by round.
 */
const RATE_LIMIT = process.env.BENCH_RATE_LIMIT;
/** Rounds of each side, alternated; more of them when the machine is noisy. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
/** The demo bundle by default; BENCH_BUNDLE names another. */
const BUNDLE = process.env.BENCH_BUNDLE ?? DEMO_BUNDLE_DIR;

async function prepare(databaseUrl: string): Promise<{ path: string; key: string; bytes: number }> {
  const config = databaseUrl.startsWith('sqlite:')
    ? ({ kind: 'sqlite', path: databaseUrl.slice(7) } as const)
    : ({ kind: 'postgres', url: databaseUrl } as const);
  const db = connect(config);
  await migrate(db);
  await importBundle(db.kysely, BUNDLE);
  const target = await db.kysely
    .selectFrom('revenue_points as p')
    .innerJoin('listings as l', (j) => j.onRef('l.company_id', '=', 'p.company_id').on('l.is_primary', '=', 1))
    .select(['l.ticker', 'l.mic_code', 'p.reporting_period'])
    .orderBy('p.point_id')
    .executeTakeFirstOrThrow();
  const account = await createAccount(db.kysely, { email: 'bench@example.com', credits: 50_000_000, now: new Date() });
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

async function measure(label: string, databaseUrl: string): Promise<void> {
  const { path, key } = await prepare(databaseUrl);
  const appPort = 41000 + Math.floor(Math.random() * 1000);
  const barePort = appPort + 1000;
  const env = {
    ...process.env,
    CORPDATA_DATABASE: databaseUrl,
    CORPDATA_SECRET: SECRET,
    CORPDATA_DEMO: 'off',
    LOG_LEVEL: 'silent',
  };
  // Buy the company-period once, so the benchmark measures the repeat (1 credit) path.
  const first = await new Promise<{ bytes: number; child: ReturnType<typeof spawn> }>((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(new URL('./serve-pair.js', import.meta.url))], {
      env: { ...env, BENCH_APP_PORT: String(appPort), BENCH_BARE_PORT: String(barePort), BENCH_BODY_BYTES: '0' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout?.once('data', async () => {
      const res = await fetch(`http://127.0.0.1:${appPort}${path}`, { headers: { authorization: `Bearer ${key}` } });
      if (res.status !== 200) reject(new Error(`target answered ${res.status}: ${await res.text()}`));
      resolve({ bytes: Buffer.byteLength(await res.text()), child });
    });
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  first.child.kill('SIGTERM');
  await new Promise((r) => first.child.once('exit', r));
  const compare = RATE_LIMIT === undefined ? {} : { CORPDATA_RATE_LIMIT: 'off', BENCH_SECOND_RATE_LIMIT: RATE_LIMIT };
  const child = spawn(process.execPath, [fileURLToPath(new URL('./serve-pair.js', import.meta.url))], {
    env: {
      ...env,
      ...compare,
      BENCH_APP_PORT: String(appPort),
      BENCH_BARE_PORT: String(barePort),
      BENCH_BODY_BYTES: String(first.bytes),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((r) => child.stdout?.once('data', r));
  try {
    await cannon(`http://127.0.0.1:${appPort}${path}`, key); // warm-up
    const billed: number[] = [];
    const bare: number[] = [];
    if (RATE_LIMIT !== undefined) await cannon(`http://127.0.0.1:${barePort}${path}`, key); // warm-up
    const billedRound = async () => {
      const b = await cannon(`http://127.0.0.1:${appPort}${path}`, key);
      if (b.non2xx > 0 || b.errors > 0) throw new Error(`billed path: ${b.non2xx} non-2xx, ${b.errors} errors`);
      billed.push(b.requests.average);
    };
    const otherRound = async () => {
      if (RATE_LIMIT === undefined) {
        bare.push((await cannon(`http://127.0.0.1:${barePort}/bare`)).requests.average);
        return;
      }
      const limited = await cannon(`http://127.0.0.1:${barePort}${path}`, key);
      if (limited.non2xx > 0 || limited.errors > 0) throw new Error(`rate-limited app: ${limited.non2xx} non-2xx`);
      bare.push(limited.requests.average);
    };
    for (let round = 0; round < ROUNDS; round++) {
      // Comparing two apps, each goes first every other round: the second of a pair runs warmer.
      if (RATE_LIMIT !== undefined && round % 2 === 1) {
        await otherRound();
        await billedRound();
      } else {
        await billedRound();
        await otherRound();
      }
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    if (RATE_LIMIT !== undefined) {
      // Each round pair ran back to back, under the same load: their ratios, not the means, are comparable.
      const ratios = billed.map((off, i) => (bare[i] ?? 0) / off).sort((a, b) => a - b);
      const median = ratios[Math.floor(ratios.length / 2)] ?? 0;
      process.stdout.write(`${label.padEnd(10)} median on/off of ${ratios.length} round pairs ${median.toFixed(3)}\n`);
      process.stdout.write(
        `${label.padEnd(10)} billed revenues (repeat), rate limit off ${mean(billed).toFixed(0).padStart(7)} req/s | ${RATE_LIMIT} ${mean(bare).toFixed(0).padStart(7)} req/s | on/off ${(mean(bare) / mean(billed)).toFixed(3)} | rounds off ${billed.map((x) => x.toFixed(0)).join(', ')}; on ${bare.map((x) => x.toFixed(0)).join(', ')}\n`,
      );
      return;
    }
    const ratio = mean(billed) / mean(bare);
    process.stdout.write(
      `${label.padEnd(10)} billed revenues (repeat) ${mean(billed).toFixed(0).padStart(7)} req/s | bare route ${mean(bare).toFixed(0).padStart(7)} req/s | ratio ${ratio.toFixed(2)} | body ${first.bytes} B, ${CONNECTIONS} connections, ${DURATION_S}s × ${ROUNDS} rounds\n`,
    );
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

async function main(): Promise<void> {
  if (!existsSync(join(BUNDLE, 'companies.csv'))) throw new Error(`no bundle at ${BUNDLE}`);
  const dir = mkdtempSync(join(tmpdir(), 'corpdata-bench-'));
  try {
    await measure('sqlite', `sqlite:${join(dir, 'bench.db')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (process.env.BENCH_SKIP_POSTGRES === '1') return;
  const server = process.env.CORPDATA_BENCH_PG_URL === undefined ? startThrowawayPostgres() : undefined;
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
