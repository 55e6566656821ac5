import { readdirSync, readFileSync } from 'node:fs';

/** Linux counts a process's CPU time in clock ticks of 1/100 s (USER_HZ). */
const TICKS_PER_SECOND = 100;

/** One process's line of /proc/<pid>/stat, split after the command name (which may hold spaces). */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    // Gone since it was listed (a backend that ended): its time is no longer counted anywhere.
    return undefined;
  }
}

/** CPU seconds (user and system, every thread) used so far by each process that is still running. */
export function cpuSnapshot(pids: readonly number[]): Map<number, number> {
  const snapshot = new Map<number, number>();
  for (const pid of pids) {
    const fields = statFields(pid);
    // After the name: state (0), ppid (1), … utime (11), stime (12).
    if (fields !== undefined) snapshot.set(pid, (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND);
  }
  return snapshot;
}

/**
 * The CPU seconds used between two snapshots: by each process in the second, less what it had used
 * at the first (nothing if it started in between: a PostgreSQL backend or autovacuum worker). A
 * process that ended in between is left out (its last figures are gone with it).
 */
export function cpuBetween(before: ReadonlyMap<number, number>, after: ReadonlyMap<number, number>): number {
  let seconds = 0;
  for (const [pid, used] of after) seconds += used - (before.get(pid) ?? 0);
  return seconds;
}

function numericEntries(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
}

function commandLine(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return [];
  }
}

/**
 * The processes of the PostgreSQL server listening on `port`: its postmaster (found by its `-p`
 * argument) and every process it started (backends, WAL writer, checkpointer, autovacuum). Other
 * servers on the machine (other people's test clusters) are left out. Listed anew before each
 * measurement: backends come and go.
 */
export function postgresPids(port: number): number[] {
  const all = numericEntries();
  const postmaster = all.find((pid) => {
    const argv = commandLine(pid);
    const p = argv.indexOf('-p');
    return (argv[0] ?? '').endsWith('postgres') && p >= 0 && argv[p + 1] === String(port);
  });
  if (postmaster === undefined) throw new Error(`no PostgreSQL server found listening on port ${port}`);
  return [postmaster, ...all.filter((pid) => statFields(pid)?.[1] === String(postmaster))];
}
