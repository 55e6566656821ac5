import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A PostgreSQL cluster in a temporary folder, for tests and benchmarks; gone after `stop()`. */
export interface ThrowawayPostgres {
  /** Admin URL (user postgres, database postgres). */
  url: string;
  stop(): void;
}

/** The folder of the newest installed PostgreSQL's programs (initdb, pg_ctl, pgbench…). */
export function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  const version = versions[0];
  if (version === undefined)
    throw new Error('PostgreSQL is not installed (apt-get install -y postgresql), or set DIALECTS=sqlite');
  return join(root, version, 'bin');
}

/**
 * Starts a throwaway cluster on a random loopback port. Durability is off (fsync, synchronous
 * commit) because the data dies with it, unless `durable` asks for commits as in service (each
 * one flushed to disk before it is acknowledged). Debian's binaries refuse root, so then it runs as postgres.
 */
export function startThrowawayPostgres(options: { durable?: boolean } = {}): ThrowawayPostgres {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'corpdata-pg-'));
  chmodSync(dir, 0o777);
  const asRoot = process.getuid?.() === 0;
  const command = (cmd: string, args: string[]): [string, string[]] =>
    asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args]] : [join(bin, cmd), args];
  const run = (cmd: string, args: string[]) => {
    const [file, argv] = command(cmd, args);
    execFileSync(file, argv, { stdio: 'pipe' });
  };
  const data = join(dir, 'data');
  // Below Linux's default range of outgoing ports (32768–60999), which the benchmark's own connections use.
  const port = 20000 + Math.floor(Math.random() * 12000);
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const durability = options.durable ? '' : ' -c fsync=off -c synchronous_commit=off -c full_page_writes=off';
  // Two test files at a time may each run several instances with full pools.
  const settings = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1${durability} -c max_connections=600`;
  run('pg_ctl', ['-D', data, '-w', '-l', join(dir, 'log'), '-o', settings, 'start']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => {
      const [file, argv] = command('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
      spawnSync(file, argv, { stdio: 'ignore' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** psql's arguments for one SQL text as the superuser on a loopback server: bare output, stopping at an error. */
export const psqlArgs = (port: number, database: string): string[] => [
  '-X',
  '-A',
  '-t',
  '-q',
  '-v',
  'ON_ERROR_STOP=1',
  '-h',
  '127.0.0.1',
  '-p',
  String(port),
  '-U',
  'postgres',
  '-d',
  database,
];
