import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { dialects } from './dialects.js';

/**
 * Starts a throwaway PostgreSQL cluster for the run when PostgreSQL is among the dialects and no
 * server was given (CORPDATA_TEST_PG_URL). Debian's binaries refuse to run as root, so the
 * cluster runs as the postgres user then.
 */
function pgBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  const version = versions[0];
  if (version === undefined) {
    throw new Error('PostgreSQL is not installed: run scripts/test.sh (it installs it), or set DIALECTS=sqlite');
  }
  return join(root, version, 'bin');
}

export default function setup(project: TestProject): (() => void) | undefined {
  if (!dialects().includes('postgres') || process.env.CORPDATA_TEST_PG_URL) return undefined;
  const bin = pgBin();
  const dir = mkdtempSync(join(tmpdir(), 'corpdata-pg-'));
  chmodSync(dir, 0o777);
  const asRoot = process.getuid?.() === 0;
  const run = (cmd: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args], { stdio: 'pipe' })
      : execFileSync(join(bin, cmd), args, { stdio: 'pipe' });
  const data = join(dir, 'data');
  const port = 20000 + Math.floor(Math.random() * 20000);
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  run('pg_ctl', [
    '-D',
    data,
    '-w',
    '-l',
    join(dir, 'log'),
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`,
    'start',
  ]);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  process.env.CORPDATA_TEST_PG_URL = url;
  project.provide('pgUrl', url);
  return () => {
    spawnSync(
      asRoot ? 'runuser' : join(bin, 'pg_ctl'),
      asRoot
        ? ['-u', 'postgres', '--', join(bin, 'pg_ctl'), '-D', data, '-m', 'immediate', 'stop']
        : ['-D', data, '-m', 'immediate', 'stop'],
    );
    rmSync(dir, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string;
  }
}
