import { median, type SideRounds } from './cpu-rounds.js';

/** A call's figures on one side, medians of its rounds. */
export interface CallFigures {
  appUs: number;
  databaseUs: number;
  rps: number;
}

export function figuresOf(rounds: SideRounds): CallFigures {
  return { appUs: median(rounds.cpuUs), databaseUs: median(rounds.databaseUs), rps: median(rounds.rps) };
}

const us = (x: number) => x.toFixed(1).padStart(5);
const whole = (x: number) => Math.round(x).toLocaleString('en-US').padStart(7);

/** Calls a second one core can carry at `cpuUs` of CPU time per call. */
export function perCore(cpuUs: number): number {
  return cpuUs > 0 ? 1e6 / cpuUs : 0;
}

/**
 * Below a microsecond a call the database did no work for it (what is left is its background
 * processes): no capacity is implied.
 */
const NO_WORK_US = 1;

/** The calls a second one core carries, or a dash where the side did no work for the call. */
export function perCoreText(cpuUs: number): string {
  return cpuUs < NO_WORK_US ? '—'.padStart(7) : whole(perCore(cpuUs));
}

/**
 * One line of the report: the call's CPU time per call on the product (app and database) beside the
 * bare route's, their ratio, the calls a second one core of each carries, and req/s (kept for
 * reference: on a shared machine they follow the other jobs more than the code).
 */
export function reportLine(database: string, call: string, label: string, side: SideRounds, bare: SideRounds): string {
  const f = figuresOf(side);
  const b = figuresOf(bare);
  const total = f.appUs + f.databaseUs;
  const db = database === 'postgres' ? ` + database ${us(f.databaseUs)} µs` : '';
  const dbCore = database === 'postgres' ? `, database ${perCoreText(f.databaseUs)}` : '';
  const rounds = side.cpuUs.map(
    (x, i) => `${x.toFixed(1)}${database === 'postgres' ? `+${(side.databaseUs[i] ?? 0).toFixed(1)}` : ''}`,
  );
  return (
    `${database.padEnd(9)} ${call.padEnd(14)} ${label.padEnd(10)} app ${us(f.appUs)} µs${db} = ${(total / Math.max(b.appUs, 1e-9)).toFixed(2)}× bare ${us(b.appUs)} µs` +
    ` | calls/s per core: app ${whole(perCore(f.appUs))}${dbCore}` +
    ` | ${whole(f.rps)} req/s, bare ${whole(b.rps)} | rounds µs ${rounds.join(' ')}\n`
  );
}

/** The bare route's own line: its CPU per call and req/s. */
export function bareLine(database: string, call: string, bare: SideRounds): string {
  const b = figuresOf(bare);
  return `${database.padEnd(9)} ${call.padEnd(14)} ${'bare route'.padEnd(10)} app ${us(b.appUs)} µs | calls/s per core ${whole(perCore(b.appUs))} | ${whole(b.rps)} req/s | rounds µs ${bare.cpuUs.map((x) => x.toFixed(1)).join(' ')}\n`;
}
