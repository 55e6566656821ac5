import { type ChildProcess, execFile, execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { binDir, psqlArgs } from './throwaway-postgres.js';

const execFileAsync = promisify(execFile);

/** One PostgreSQL node of the formation, kept by its own `pg_autoctl run`. */
export interface FormationNode {
  readonly name: string;
  readonly port: number;
  readonly data: string;
}

/** A node's line of `pg_autoctl show state --json`: what it last reported and what the monitor assigned it. */
export interface NodeState {
  name: string;
  port: number;
  reported: string;
  assigned: string;
}

/**
 * Monitor settings that make a test run's failover take seconds instead of the defaults' tens of
 * seconds: health checks every second, a node unhealthy after 2 s without an answer, and an old
 * primary that cannot be reached given 5 s to demote itself before the standby is promoted anyway.
 */
export const FAST_MONITOR_SETTINGS: Readonly<Record<string, string>> = {
  'pgautofailover.health_check_period': '1000',
  'pgautofailover.health_check_timeout': '1000',
  'pgautofailover.health_check_max_retries': '1',
  'pgautofailover.health_check_retry_delay': '500',
  'pgautofailover.node_considered_unhealthy_timeout': '2000',
  'pgautofailover.primary_demote_timeout': '5000',
  'pgautofailover.startup_grace_period': '2000',
};

/**
 * A pg_auto_failover formation on one machine (design §21.1), from Debian's packages
 * (`postgresql-15-auto-failover`, `pg-auto-failover-cli`): a monitor and two nodes on loopback
 * ports, each run by its own `pg_autoctl run` as it would be under systemd. The first node created is
 * the primary, the second its synchronous standby (`synchronous_standby_names = 'ANY 1 (…)'`). The
 * monitor, not this code, promotes the standby when the primary fails, turns synchronous
 * replication off and on, and has a returning node rejoin as standby (pg_rewind).
 */
export interface AutoFailoverFormation {
  readonly monitorPort: number;
  readonly nodes: readonly [FormationNode, FormationNode];
  /** `pg_autoctl show uri --formation default`, with the user added (the monitor's URL names none). */
  readonly url: string;
  /** `pg_autoctl show state --json`, read without blocking the event loop. */
  state(): Promise<NodeState[]>;
  /** The postmaster's pid of a node, from its pid file; undefined when it is not running. */
  postmasterPid(node: FormationNode): number | undefined;
  /** SIGKILL of a node's postmaster (its keeper, `pg_autoctl run`, lives on). */
  kill(node: FormationNode): void;
  /** Runs SQL as the superuser on one node (psql), without blocking the event loop. */
  psql(node: FormationNode, sql: string): Promise<string>;
  /** The keeper's log of a node (what `pg_autoctl run` printed). */
  log(node: FormationNode): string;
  /** Stops the keepers and servers and removes the folder. */
  remove(): void;
}

/** Whether Debian's pg_auto_failover is installed. */
export function autoFailoverInstalled(): boolean {
  return existsSync('/usr/bin/pg_autoctl') && existsSync(join(binDir(), '..', 'lib', 'pgautofailover.so'));
}

/** Below Linux's default range of outgoing ports, as the throwaway cluster's. */
const randomPort = () => 20000 + Math.floor(Math.random() * 12000);

/**
 * Creates the monitor (with {@link FAST_MONITOR_SETTINGS}), then the primary with `database`, then the
 * standby, and waits until the monitor reports them `primary` and `secondary`. PostgreSQL refuses
 * root, so as root every command runs as `postgres`; pg_autoctl's configuration and state files go
 * to the temporary folder too (XDG_CONFIG_HOME, XDG_DATA_HOME, XDG_RUNTIME_DIR).
 */
export async function startAutoFailoverFormation(database: string): Promise<AutoFailoverFormation> {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'corpdata-paf-'));
  chmodSync(dir, 0o777);
  const asRoot = process.getuid?.() === 0;
  const env = [
    `PATH=${bin}:/usr/bin:/bin`,
    `HOME=${dir}`,
    `XDG_CONFIG_HOME=${join(dir, 'config')}`,
    `XDG_DATA_HOME=${join(dir, 'share')}`,
    `XDG_RUNTIME_DIR=${join(dir, 'run')}`,
  ];
  for (const sub of ['config', 'share', 'run']) {
    mkdirSync(join(dir, sub));
    chmodSync(join(dir, sub), 0o777);
  }
  const argv = (cmd: string, args: string[]): [string, string[]] =>
    asRoot ? ['runuser', ['-u', 'postgres', '--', 'env', ...env, cmd, ...args]] : ['env', [...env, cmd, ...args]];
  const run = (cmd: string, args: string[], input?: string): string => {
    const [file, a] = argv(cmd, args);
    return execFileSync(file, a, { stdio: ['pipe', 'pipe', 'pipe'], input, encoding: 'utf8' });
  };
  const keepers: ChildProcess[] = [];
  const keep = (name: string, args: string[]) => {
    const out = openSync(join(dir, `${name}.log`), 'a');
    const [file, a] = argv('pg_autoctl', args);
    // Its own process group, so that ending it reaches pg_autoctl and its services.
    const child = spawn(file, a, { stdio: ['ignore', out, out], detached: true });
    closeSync(out);
    keepers.push(child);
  };
  const monitorPort = randomPort();
  const nodes: [FormationNode, FormationNode] = [
    { name: 'node_a', port: monitorPort + 1, data: join(dir, 'node_a') },
    { name: 'node_b', port: monitorPort + 2, data: join(dir, 'node_b') },
  ];
  const monitorData = join(dir, 'monitor');
  const common = ['--hostname', '127.0.0.1', '--listen', '127.0.0.1', '--auth', 'trust', '--no-ssl', '--ssl-mode', 'disable'];
  const stateJson = async (): Promise<NodeState[]> => {
    const [file, a] = argv('pg_autoctl', ['show', 'state', '--pgdata', monitorData, '--json']);
    const { stdout } = await execFileAsync(file, a, { encoding: 'utf8' });
    return parseState(stdout);
  };
  const stop = () => {
    for (const k of keepers) {
      if (k.pid !== undefined && k.exitCode === null) {
        try {
          // SIGQUIT: pg_autoctl's immediate stop, as the data is thrown away.
          process.kill(-k.pid, 'SIGQUIT');
        } catch {
          // Already gone.
        }
      }
    }
    const deadline = Date.now() + 15_000;
    while (keepers.some((k) => k.pid !== undefined && alive(k.pid)) && Date.now() < deadline) pause(100);
    for (const k of keepers) {
      if (k.pid !== undefined && alive(k.pid)) {
        try {
          process.kill(-k.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
    }
    // A postmaster its keeper could not stop in time.
    for (const data of [monitorData, ...nodes.map((n) => n.data)]) {
      if (existsSync(join(data, 'postmaster.pid'))) {
        const [file, a] = argv(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop']);
        spawnSync(file, a, { stdio: 'ignore' });
      }
    }
  };
  const waitFor = async (what: string, ok: () => Promise<boolean>, ms: number) => {
    const deadline = Date.now() + ms;
    for (;;) {
      if (await ok().catch(() => false)) return;
      if (Date.now() > deadline) throw new Error(`pg_auto_failover: ${what} after ${ms / 1000} s`);
      await sleep(200);
    }
  };
  try {
    keep('monitor', ['create', 'monitor', '--pgdata', monitorData, '--pgport', String(monitorPort), ...common, '--run']);
    await waitFor(
      'no monitor',
      async () => run('psql', psqlArgs(monitorPort, 'pg_auto_failover'), 'select 1').trim() === '1',
      60_000,
    );
    for (const [name, value] of Object.entries(FAST_MONITOR_SETTINGS)) {
      run('psql', psqlArgs(monitorPort, 'pg_auto_failover'), `alter system set ${name} = ${value}`);
    }
    run('psql', psqlArgs(monitorPort, 'pg_auto_failover'), 'select pg_reload_conf()');
    const monitor = `postgres://autoctl_node@127.0.0.1:${monitorPort}/pg_auto_failover?sslmode=disable`;
    const create = (n: FormationNode) =>
      keep(n.name, [
        'create',
        'postgres',
        '--pgdata',
        n.data,
        '--pgport',
        String(n.port),
        '--name',
        n.name,
        ...common,
        '--dbname',
        database,
        '--monitor',
        monitor,
        '--run',
      ]);
    const [a, b] = nodes;
    create(a);
    await waitFor(
      'no primary',
      async () => (await stateJson()).some((s) => s.port === a.port && s.reported === 'single'),
      90_000,
    );
    create(b);
    // pg_autoctl's pg_basebackup waits for a spread checkpoint (minutes): asking for one finishes it now.
    await waitFor(
      'no synchronous standby',
      async () => {
        await execFileAsync(...argv('psql', [...psqlArgs(a.port, 'postgres'), '-c', 'checkpoint'])).catch(() => undefined);
        const s = await stateJson();
        return (
          s.some((x) => x.port === a.port && x.reported === 'primary' && x.assigned === 'primary') &&
          s.some((x) => x.port === b.port && x.reported === 'secondary' && x.assigned === 'secondary')
        );
      },
      120_000,
    );
  } catch (error) {
    const tail = ['monitor', ...nodes.map((n) => n.name)]
      .map((name) => `${name}:\n${lastLines(join(dir, `${name}.log`), 8)}`)
      .join('\n');
    stop();
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`${error instanceof Error ? error.message : String(error)}; the keepers' logs end:\n${tail}`);
  }
  const [file, a] = argv('pg_autoctl', ['show', 'uri', '--pgdata', monitorData, '--formation', 'default']);
  const shown = execFileSync(file, a, { encoding: 'utf8' }).trim();
  const postmasterPid = (n: FormationNode) => {
    const pidFile = join(n.data, 'postmaster.pid');
    if (!existsSync(pidFile)) return undefined;
    const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  };
  return {
    monitorPort,
    nodes,
    url: shown.replace(/^postgres(ql)?:\/\/(?![^/]*@)/, 'postgresql://postgres@'),
    state: stateJson,
    postmasterPid,
    kill: (n) => {
      const pid = postmasterPid(n);
      if (pid !== undefined) process.kill(pid, 'SIGKILL');
    },
    psql: async (n, sql) => {
      const [f, args] = argv('psql', [...psqlArgs(n.port, 'postgres'), '-c', sql]);
      const { stdout } = await execFileAsync(f, args, { encoding: 'utf8' });
      return stdout.trim();
    },
    log: (n) => (existsSync(join(dir, `${n.name}.log`)) ? readFileSync(join(dir, `${n.name}.log`), 'utf8') : ''),
    remove: () => {
      stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The nodes of `pg_autoctl show state --json` (an array of objects, one per node). */
export function parseState(json: string): NodeState[] {
  const parsed: unknown = JSON.parse(json);
  if (!Array.isArray(parsed)) throw new Error('pg_autoctl show state --json: not an array');
  return parsed.map((row: unknown) => {
    const r = (typeof row === 'object' && row !== null ? row : {}) as Record<string, unknown>;
    return {
      name: String(r.nodename ?? ''),
      port: Number(r.nodeport),
      reported: String(r.current_group_state ?? r.reportedstate ?? ''),
      assigned: String(r.assigned_group_state ?? r.goalstate ?? ''),
    };
  });
}

/** Whether a process runs (a zombie, exited but not yet reaped while the event loop is blocked, does not). */
function alive(pid: number): boolean {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return false;
  return !/^\d+ \(.*\) Z/.test(readFileSync(stat, 'utf8'));
}

function lastLines(file: string, n: number): string {
  return existsSync(file) ? readFileSync(file, 'utf8').trimEnd().split('\n').slice(-n).join('\n') : '(no log)';
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Blocks for `ms` (the end of a run, when nothing else must go on). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
