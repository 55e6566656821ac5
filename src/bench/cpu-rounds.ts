import autocannon from 'autocannon';
import { cpuBetween, cpuSnapshot } from './cpu-time.js';

/** One server a call is measured on: the product (and its database) or the bare route. */
export interface Side {
  label: string;
  url: string;
  /** The request headers (the credential this side's server knows). */
  headers: Record<string, string>;
  /** The processes whose CPU time is the side's own. */
  pids: () => readonly number[];
  /** The database server's processes, measured alongside (PostgreSQL); none for SQLite or a bare route. */
  databasePids?: () => readonly number[];
}

/** A side's figures, one per round. */
export interface SideRounds {
  /** The side's CPU time per call, µs. */
  cpuUs: number[];
  /** The database server's CPU time per call, µs (0 without one). */
  databaseUs: number[];
  /** Calls answered per second. */
  rps: number[];
}

export interface LoadOptions {
  connections: number;
  seconds: number;
  rounds: number;
}

function load(side: Side, options: LoadOptions, seconds = options.seconds): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon({ url: side.url, connections: options.connections, duration: seconds, headers: side.headers }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
}

/** One round on one side: the load, and the CPU time its servers used meanwhile. */
async function round(side: Side, options: LoadOptions, into: SideRounds): Promise<void> {
  const pids = side.pids();
  const cpu0 = cpuSnapshot(pids);
  const db0 = cpuSnapshot(side.databasePids?.() ?? []);
  const result = await load(side, options);
  const cpu1 = cpuSnapshot(pids);
  // Listed again: processes the server started meanwhile count too.
  const db1 = cpuSnapshot(side.databasePids?.() ?? []);
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${side.label} ${side.url}: ${result.non2xx} answers not 2xx, ${result.errors} errors`);
  const calls = Math.max(1, result.requests.total);
  into.cpuUs.push((cpuBetween(cpu0, cpu1) * 1e6) / calls);
  into.databaseUs.push((cpuBetween(db0, db1) * 1e6) / calls);
  into.rps.push(result.requests.average);
}

/**
 * Measures one call on several sides (the bare route, the product, a version to compare with),
 * after a warm-up of each (JIT, caches, pools): `rounds` rounds, each loading every side in turn for
 * `seconds`, the side that goes first moving on by one each round (the second of a pair runs on a
 * warmer machine). CPU time per call is what to judge by: another job on the machine slows the
 * calls a second, not the CPU each one takes.
 */
export async function measureCall(sides: readonly Side[], options: LoadOptions): Promise<Map<string, SideRounds>> {
  const figures = new Map(sides.map((s): [string, SideRounds] => [s.label, { cpuUs: [], databaseUs: [], rps: [] }]));
  for (const side of sides) await load(side, options, Math.min(2, options.seconds));
  for (let r = 0; r < options.rounds; r++) {
    for (let i = 0; i < sides.length; i++) {
      const side = sides[(r + i) % sides.length] as Side;
      await round(side, options, figures.get(side.label) as SideRounds);
    }
  }
  return figures;
}

/** The median (the upper of the two middle values for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
