import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/corpdata', import.meta.url));

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  json<T = Record<string, unknown>>(): T;
}

/** Runs `bin/corpdata ARGS` as an operator would, with `env` on top of a minimal environment. */
export function corpdata(args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(BIN, args, { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 120_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      resolve({ code, stdout, stderr, json: <T>() => JSON.parse(stdout) as T });
    });
  });
}

/**
 * Runs `bin/corpdata ARGS` under GNU time (`/usr/bin/time -v`, Debian's `time` package), and
 * reads the peak resident memory of the whole run from its report.
 */
export async function corpdataPeak(args: string[], env: Record<string, string>): Promise<CliResult & { peakMiB: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'corpdata-time-'));
  const report = join(dir, 'time.txt');
  try {
    const result = await new Promise<CliResult>((resolve) => {
      execFile(
        '/usr/bin/time',
        ['-v', '-o', report, BIN, ...args],
        { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 120_000, maxBuffer: 1 << 20 },
        (error, stdout, stderr) => {
          const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
          resolve({ code, stdout, stderr, json: <T>() => JSON.parse(stdout) as T });
        },
      );
    });
    const kib = /Maximum resident set size \(kbytes\): ([0-9]+)/.exec(readFileSync(report, 'utf8'))?.[1];
    if (kib === undefined) throw new Error(`no peak memory in the report of /usr/bin/time: ${result.stderr}`);
    return { ...result, peakMiB: Number(kib) / 1024 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Starts `bin/corpdata serve` and resolves once it answers on `port`. */
export async function startServer(
  env: Record<string, string>,
  port: number,
): Promise<{ url: string; process: ChildProcess; output(): string; stop(): Promise<number | null> }> {
  const child = spawn(BIN, ['serve'], {
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      // Tests burst from one address with one key; give CORPDATA_RATE_LIMIT: '' for the default.
      CORPDATA_RATE_LIMIT: '1000000/s',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += String(d);
  });
  child.stderr?.on('data', (d) => {
    output += String(d);
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const res = await fetch(`${url}/`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`server did not start: ${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    process: child,
    output: () => output,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill('SIGTERM');
      }),
  };
}

/** A port the OS just had free on loopback (asked for by binding port 0). */
export function freePort(): Promise<number> {
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

/** Runs `bin/corpdata ingest ARGS` on the database at `databaseUrl`, the demo catalog off. */
export function ingestCli(databaseUrl: string, ...args: string[]): Promise<CliResult> {
  return corpdata(['ingest', ...args], { CORPDATA_DATABASE: databaseUrl, CORPDATA_DEMO: 'off' });
}
