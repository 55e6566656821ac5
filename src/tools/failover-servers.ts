import { type AutoFailoverFormation, startAutoFailoverFormation } from '../scratch/auto-failover-formation.js';
import { type ReplicatedPostgres, startReplicatedPostgres } from '../scratch/replicated-postgres.js';

/** Which server dies: the primary (the standby is promoted) or the synchronous standby. */
export type Victim = 'primary' | 'standby';

/**
 * Who fails over: `pg_auto_failover`, a real formation (monitor and two keepers) whose monitor
 * promotes and rejoins by itself, or `manual`, a primary and standby made by hand for which the
 * tool plays the monitor (promotes, clears synchronous_standby_names, pg_rewinds).
 */
export type Ha = 'pg_auto_failover' | 'manual';

/** The two servers under test, and how a kill of one is followed. */
export interface FailoverServers {
  /** One line for the log: ports and roles. */
  readonly description: string;
  /** The multi-host URL the instances are given. */
  readonly url: string;
  /** SIGKILL of the victim's postmaster. */
  kill(victim: Victim): void;
  /**
   * Resolves when the switch is over: the standby promoted and taking writes (primary killed), or
   * the killed standby running and streaming again.
   */
  switched(victim: Victim, detectMs: number): Promise<void>;
  /** After the primary's kill: the old primary back as the new standby, and how (`log` says why not pg_rewind). */
  rejoined(log: (line: string) => void): Promise<'pg_rewind' | 'pg_basebackup'>;
  /** Waits until the standby has replayed all the primary wrote; false after 30 s. */
  inSync(victim: Victim): Promise<boolean>;
  /** The monitor's last word on each node (`pg_autoctl show state`), none for `manual`. */
  states(): Promise<string[]>;
  remove(): void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Builds the servers of `ha` with `database` on them. */
export async function startFailoverServers(ha: Ha, database: string): Promise<FailoverServers> {
  return ha === 'manual' ? manual(database) : autoFailover(await startAutoFailoverFormation(database));
}

function manual(database: string): FailoverServers {
  const cluster: ReplicatedPostgres = startReplicatedPostgres({ synchronous: true });
  cluster.psql(cluster.primary, `create database ${database}`);
  const { primary, standby } = cluster;
  return {
    description: `primary on ${primary.port}, synchronous standby on ${standby.port}`,
    url: cluster.multiHostUrl(database),
    kill: (victim) => (victim === 'primary' ? primary : standby).kill(),
    switched: async (victim, detectMs) => {
      await sleep(detectMs);
      if (victim === 'primary') {
        standby.promote();
        // Alone, the new primary would wait for a standby on every commit; the monitor drops the requirement.
        cluster.psql(standby, "alter system set synchronous_standby_names = ''; select pg_reload_conf()");
      } else {
        standby.start();
      }
    },
    rejoined: async () => {
      const method = cluster.rejoin(primary, standby);
      cluster.psql(standby, "alter system set synchronous_standby_names = '*'; select pg_reload_conf()");
      return method;
    },
    inSync: async (victim) => {
      const [now, follower] = victim === 'primary' ? [standby, primary] : [primary, standby];
      return waitInSync(
        async (sql) => cluster.psql(now, sql),
        async (sql) => cluster.psql(follower, sql),
      );
    },
    states: async () => [],
    remove: () => cluster.remove(),
  };
}

function autoFailover(formation: AutoFailoverFormation): FailoverServers {
  const [a, b] = formation.nodes;
  let killedPid: number | undefined;
  let logAtKill = 0;
  const until = async (what: string, ok: () => Promise<boolean>, ms: number) => {
    const deadline = Date.now() + ms;
    while (!(await ok().catch(() => false))) {
      if (Date.now() > deadline) {
        const states = await formation.state().catch(() => []);
        throw new Error(`pg_auto_failover: ${what} not seen after ${ms / 1000} s (${JSON.stringify(states)})`);
      }
      await sleep(100);
    }
  };
  const stateOf = async (port: number) => (await formation.state()).find((s) => s.port === port);
  return {
    description: `pg_auto_failover monitor on ${formation.monitorPort}, primary ${a.name} on ${a.port}, synchronous standby ${b.name} on ${b.port}`,
    url: formation.url,
    kill: (victim) => {
      const node = victim === 'primary' ? a : b;
      killedPid = formation.postmasterPid(node);
      logAtKill = formation.log(a).length;
      formation.kill(node);
    },
    // The monitor decides when: `detectMs` is the manual mode's stand-in for its health checks.
    switched: async (victim) => {
      if (victim === 'primary') {
        await until(
          `${b.name} promoted`,
          async () => ['wait_primary', 'primary'].includes((await stateOf(b.port))?.reported ?? ''),
          120_000,
        );
      } else {
        await until(
          `${b.name} restarted by its keeper and streaming`,
          async () => {
            const pid = formation.postmasterPid(b);
            if (pid === undefined || pid === killedPid) return false;
            return (await formation.psql(a, "select count(*) from pg_stat_replication where state = 'streaming'")) !== '0';
          },
          120_000,
        );
      }
    },
    rejoined: async (log) => {
      await until(
        `${a.name} back as secondary of ${b.name}`,
        async () => {
          const states = await formation.state();
          const old = states.find((s) => s.port === a.port);
          const now = states.find((s) => s.port === b.port);
          return old?.reported === 'secondary' && old.assigned === 'secondary' && now?.reported === 'primary';
        },
        120_000,
      );
      const since = formation.log(a).slice(logAtKill);
      // The keeper logs each command it runs; its transition's description names both tools.
      if (!/\/pg_basebackup\s/.test(since)) return 'pg_rewind';
      for (const line of since
        .split('\n')
        .filter((l) => /\b(ERROR|WARN|FATAL)\b|rewind/.test(l))
        .slice(0, 12)) {
        log(`${a.name}'s keeper: ${line}`);
      }
      return 'pg_basebackup';
    },
    inSync: async (victim) => {
      const [now, follower] = victim === 'primary' ? [b, a] : [a, b];
      // Synchronous replication is on again once the monitor has both nodes back in primary and secondary.
      const settled = await until(
        'primary and secondary',
        async () => {
          const states = await formation.state();
          const s = (port: number) => states.find((x) => x.port === port);
          return (
            s(now.port)?.reported === 'primary' &&
            s(now.port)?.assigned === 'primary' &&
            s(follower.port)?.reported === 'secondary' &&
            s(follower.port)?.assigned === 'secondary'
          );
        },
        60_000,
      ).then(
        () => true,
        () => false,
      );
      return (
        settled &&
        waitInSync(
          (sql) => formation.psql(now, sql),
          (sql) => formation.psql(follower, sql),
        )
      );
    },
    states: async () => (await formation.state()).map((s) => `${s.name}:${s.reported}`),
    remove: () => formation.remove(),
  };
}

/** Waits until the standby has replayed all the primary wrote: it holds every committed charge. */
async function waitInSync(
  primary: (sql: string) => Promise<string>,
  standby: (sql: string) => Promise<string>,
): Promise<boolean> {
  const target = await primary('select pg_current_wal_lsn()');
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const behind = await standby(`select pg_wal_lsn_diff('${target}', pg_last_wal_replay_lsn()) > 0`).catch(() => 't');
    if (behind === 'f') return true;
    await sleep(200);
  }
  return false;
}
