import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { binDir, psqlArgs } from './throwaway-postgres.js';

/** One server of a {@link ReplicatedPostgres}: its own data folder and port on the loopback. */
export interface PostgresNode {
  readonly name: string;
  readonly port: number;
  readonly data: string;
  /** Admin URL of this server alone (user postgres, database `database`). */
  url(database?: string): string;
  /** The postmaster's pid, from its pid file; undefined when it is not running. */
  postmasterPid(): number | undefined;
  start(): void;
  /** SIGKILL of the postmaster: the server dies as in a crash (its backends follow it). */
  kill(): void;
  /** Ends the server at once (`pg_ctl stop -m immediate`), if it runs. */
  stop(): void;
  /** Promotes a standby to primary and waits until it takes writes. */
  promote(): void;
}

/**
 * A primary and a hot standby streaming from it, in one temporary folder on local ports, made
 * with the distribution's initdb, pg_basebackup and pg_ctl (design §21.1). With `synchronous`, the
 * primary waits for the standby to have each commit on disk before acknowledging it
 * (`synchronous_standby_names = '*'`, `synchronous_commit = on`).
 */
export interface ReplicatedPostgres {
  readonly primary: PostgresNode;
  readonly standby: PostgresNode;
  /** The libpq multi-host URL of both servers, as a product instance is given it. */
  multiHostUrl(database: string): string;
  /**
   * Makes `node` (a dead former primary) a standby of `source` with pg_rewind (or, should the WAL
   * it needs be gone, a fresh pg_basebackup), starts it and waits until it streams; says which.
   */
  rejoin(node: PostgresNode, source: PostgresNode): 'pg_rewind' | 'pg_basebackup';
  /** Runs SQL as the superuser on one server (psql), for settings and checks. */
  psql(node: PostgresNode, sql: string): string;
  remove(): void;
}

/** Below Linux's default range of outgoing ports, as the throwaway cluster's. */
const randomPort = () => 20000 + Math.floor(Math.random() * 12000);

/**
 * Builds the pair: initdb and start the primary, pg_basebackup the standby from it (`-R` writes
 * its primary_conninfo and standby.signal), start the standby, and wait until it streams. Durability
 * on disk (fsync) is off, as the cluster dies with the run and a SIGKILL of a server leaves the
 * machine's page cache intact; what a failover keeps is decided by the replication.
 */
export function startReplicatedPostgres(options: { synchronous: boolean }): ReplicatedPostgres {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'corpdata-ha-'));
  chmodSync(dir, 0o777);
  const asRoot = process.getuid?.() === 0;
  const run = (cmd: string, args: string[], input?: string): string => {
    const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args]] : [join(bin, cmd), args];
    return execFileSync(file, argv, { stdio: ['pipe', 'pipe', 'pipe'], input, encoding: 'utf8' });
  };
  const firstPort = randomPort();
  const node = (name: string, port: number): PostgresNode => {
    const data = join(dir, name);
    const pidFile = join(data, 'postmaster.pid');
    const self: PostgresNode = {
      name,
      port,
      data,
      url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
      postmasterPid: () => {
        if (!existsSync(pidFile)) return undefined;
        const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
        return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
      },
      start: () => {
        // After a SIGKILL of the postmaster its children take a moment to notice and exit; until
        // then the server refuses to start on their shared memory.
        for (let attempt = 1; ; attempt += 1) {
          try {
            run('pg_ctl', ['-D', data, '-w', '-t', '60', '-l', join(dir, `${name}.log`), '-o', `-p ${port}`, 'start']);
            return;
          } catch (error) {
            if (attempt >= 20) throw error;
            pause(500);
          }
        }
      },
      kill: () => {
        const pid = self.postmasterPid();
        if (pid !== undefined) process.kill(pid, 'SIGKILL');
      },
      stop: () => {
        const [file, argv] = asRoot
          ? ['runuser', ['-u', 'postgres', '--', join(bin, 'pg_ctl'), '-D', data, '-m', 'immediate', 'stop']]
          : [join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop']];
        spawnSync(file, argv, { stdio: 'ignore' });
      },
      promote: () => {
        run('pg_ctl', ['-D', data, '-w', '-t', '60', 'promote']);
      },
    };
    return self;
  };
  const psql = (n: PostgresNode, sql: string): string => run('psql', psqlArgs(n.port, 'postgres'), sql).trim();

  const primary = node('a', firstPort);
  const standby = node('b', firstPort + 1);
  try {
    run('initdb', ['-D', primary.data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    // Settings both servers share (pg_basebackup copies them); the port is each one's, on its command line.
    appendFileSync(
      join(primary.data, 'postgresql.conf'),
      [
        "listen_addresses = '127.0.0.1'",
        `unix_socket_directories = '${dir}'`,
        'max_connections = 200',
        'wal_level = replica',
        'max_wal_senders = 10',
        'hot_standby = on',
        // pg_rewind needs it to bring a dead primary back as a standby.
        'wal_log_hints = on',
        "wal_keep_size = '256MB'",
        'fsync = off',
        'synchronous_commit = on',
        `synchronous_standby_names = '${options.synchronous ? '*' : ''}'`,
        'wal_receiver_status_interval = 1s',
        '',
      ].join('\n'),
    );
    primary.start();
    run('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primary.port),
      '-U',
      'postgres',
      '-D',
      standby.data,
      '-R',
      '-X',
      'stream',
      '--no-sync',
    ]);
    standby.start();
    waitForStreaming(psql, primary);
  } catch (error) {
    primary.stop();
    standby.stop();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    primary,
    standby,
    multiHostUrl: (database) =>
      `postgresql://postgres@127.0.0.1:${primary.port},127.0.0.1:${standby.port}/${database}?target_session_attrs=read-write`,
    rejoin: (n, source) => {
      n.stop();
      // Until its first checkpoint a promoted server's control file still names the old timeline, and
      // pg_rewind would find nothing to rewind.
      psql(source, 'checkpoint');
      // -R: writes the primary_conninfo of `source` and standby.signal; a crashed target is first
      // recovered in single-user mode by pg_rewind itself.
      let method: 'pg_rewind' | 'pg_basebackup' = 'pg_rewind';
      try {
        run('pg_rewind', [
          '-D',
          n.data,
          `--source-server=host=127.0.0.1 port=${source.port} user=postgres dbname=postgres`,
          '-R',
          '--no-sync',
        ]);
      } catch {
        // The WAL pg_rewind needs is gone (recycled): the standby is copied afresh instead.
        method = 'pg_basebackup';
        rmSync(n.data, { recursive: true, force: true });
        run('pg_basebackup', [
          '-h',
          '127.0.0.1',
          '-p',
          String(source.port),
          '-U',
          'postgres',
          '-D',
          n.data,
          '-R',
          '-X',
          'stream',
          '--no-sync',
        ]);
      }
      n.start();
      try {
        waitForStreaming(psql, source);
      } catch (error) {
        const log = readFileSync(join(dir, `${n.name}.log`), 'utf8')
          .split('\n')
          .slice(-15)
          .join('\n');
        throw new Error(`${error instanceof Error ? error.message : String(error)}; the log of ${n.name} ends:\n${log}`);
      }
      return method;
    },
    psql,
    remove: () => {
      primary.stop();
      standby.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Waits until `primary` has a standby streaming from it. */
function waitForStreaming(psql: (n: PostgresNode, sql: string) => string, primary: PostgresNode): void {
  const deadline = Date.now() + 60_000;
  while (psql(primary, "select count(*) from pg_stat_replication where state = 'streaming'") === '0') {
    if (Date.now() > deadline) throw new Error(`no standby streams from ${primary.name} after 60 s`);
    pause(100);
  }
}

/** Blocks for `ms`: the cluster is made by synchronous commands, as the test setup expects. */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
