import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { stopChild } from './bare-route.js';

/** What every measured app shares: the signing secret and its log level (as in service). */
export const BENCH_SECRET = 'bench-secret-bench-secret-bench-secret';

/** One product under test: a built checkout (its `bin/corpdata`), with settings of its own. */
export interface Variant {
  /** How the report names it: `app`, `before`, `rate limit 1000000/s`. */
  label: string;
  /** The checkout's root; its `dist/` must be built. */
  checkout: string;
  /** Settings beside the benchmark's (CORPDATA_RATE_LIMIT, …). */
  env?: Record<string, string>;
}

/** A served app: its process (whose CPU time is measured), its base URL and the key made for it. */
export interface ServedApp {
  pid: number;
  base: string;
  key: string;
  stop(): Promise<void>;
}

/** A port the system considers free now (asked for port 0, then released). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function appEnv(variant: Variant, database: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    CORPDATA_DATABASE: database,
    CORPDATA_SECRET: BENCH_SECRET,
    // Rate limiting off unless the variant says otherwise: the service's default would refuse most calls.
    CORPDATA_RATE_LIMIT: 'off',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    ...variant.env,
  };
}

/** Runs the checkout's CLI and parses the JSON it prints. */
function cli(variant: Variant, database: string, args: string[]): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      [join(variant.checkout, 'bin/corpdata'), ...args],
      { env: appEnv(variant, database), cwd: variant.checkout, maxBuffer: 1 << 24 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`corpdata ${args.join(' ')}: ${stderr || error.message}`)) : resolve(JSON.parse(stdout)),
    ),
  );
}

async function waitReady(base: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    if (child.exitCode !== null) throw new Error(`served app exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/readyz`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`served app at ${base} never became ready`);
}

/**
 * Serves a checkout as an operator does (`bin/corpdata serve`, its standard output, the access
 * log, to /dev/null: writing the lines is part of a call's cost, reading them is not), on a
 * database that its first start seeds with the demo; then makes an account and a key through the
 * checkout's CLI, unless `key` names one made before on that database (a second instance of one app).
 */
export async function serveVariant(
  variant: Variant,
  database: string,
  options: { nodeArgs?: readonly string[]; key?: string } = {},
): Promise<ServedApp> {
  const port = await freePort();
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), join(variant.checkout, 'bin/corpdata'), 'serve'], {
    env: { ...appEnv(variant, database), PORT: String(port) },
    cwd: variant.checkout,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitReady(base, child);
    let key = options.key;
    if (key === undefined) {
      // One account per app started without a key: a database may serve several runs (instances).
      const email = `bench-${port}@example.com`;
      await cli(variant, database, ['accounts', 'create', '--email', email, '--credits', '1000000000']);
      key = String((await cli(variant, database, ['keys', 'create', email])).api_key);
    }
    return { pid: child.pid ?? 0, base, key, stop: () => stopChild(child) };
  } catch (error) {
    await stopChild(child);
    throw error;
  }
}

/** The checkout's test token, as its CLI prints it. */
export async function testTokenOf(variant: Variant, database: string): Promise<string> {
  return String((await cli(variant, database, ['test-token'])).test_token);
}
