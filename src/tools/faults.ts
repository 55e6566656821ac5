import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { loadConfig } from '../config.js';
import { grantCredits } from '../credits/ledger.js';
import { connect, type Dialect } from '../db/connect.js';
import { auditLedger, type Observations } from './ledger-audit.js';
import { type ScratchDatabase, TOOL_SECRET, type ToolAccount } from './scratch-database.js';

const BIN = fileURLToPath(new URL('../../bin/corpdata', import.meta.url));

export interface FaultOptions {
  dialect: Dialect;
  scratch: ScratchDatabase;
  /** Stop after this many requests… */
  requests: number;
  /** …or after this many seconds, whichever comes first. */
  seconds: number;
  instances: number;
  connections: number;
  /** Mean time between SIGKILLs of a random instance, and between connection cuts (PostgreSQL). */
  killEveryMs: number;
  cutEveryMs: number;
  seed?: number;
  log?: (line: string) => void;
}

export interface FaultReport {
  database: Dialect;
  instances: number;
  seconds: number;
  requests: number;
  answered: number;
  /** Requests whose connection broke before an answer (the instance was killed, or refused the connection). */
  unanswered: number;
  byStatus: Record<string, number>;
  kills: number;
  restarts: number;
  /** Database connections ended with pg_terminate_backend. */
  disconnects: number;
  /** Instances that exited without being killed (each is also a discrepancy). */
  crashes: number;
  /** Starts that failed because the database cut the connection meanwhile (then retried). */
  failedStarts: number;
  grants: number;
  charges: number;
  /** Charges whose answer no client received: each belongs to an unanswered request. */
  unseenCharges: number;
  discrepancies: string[];
}

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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One `bin/corpdata serve` process, started again after each kill on the same port. */
export class Instance {
  child: ChildProcess | null = null;
  up = false;
  /** Exits nobody asked for: each is a failure of the product. */
  crashes = 0;
  constructor(
    readonly port: number,
    private readonly env: Record<string, string>,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Starts that failed (the database cut the connection during migration): retried, as an orchestrator would. */
  failedStarts = 0;

  async start(): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      if (await this.#startOnce()) return;
      this.failedStarts += 1;
      if (attempt >= 20) throw new Error(`instance on ${this.port} failed to start ${attempt} times`);
      await sleep(200);
    }
  }

  async #startOnce(): Promise<boolean> {
    const child = spawn(BIN, ['serve'], {
      env: { PATH: process.env.PATH ?? '', ...this.env, PORT: String(this.port), HOST: '127.0.0.1' },
      stdio: 'ignore',
    });
    this.child = child;
    child.once('exit', () => {
      if (this.child !== child || !this.up) return;
      this.crashes += 1;
      this.up = false;
      void this.start();
    });
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) return false;
      try {
        if ((await fetch(`${this.url}/healthz`)).ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`instance on ${this.port} did not start`);
      await sleep(50);
    }
    this.up = true;
    return true;
  }

  async kill(signal: 'SIGKILL' | 'SIGTERM'): Promise<void> {
    const child = this.child;
    this.up = false;
    this.child = null;
    if (child === null || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill(signal);
    await exited;
  }
}

/** A small seeded generator, so that a run can be repeated with its seed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Company ids 1..8 of the fixture bundle and one unknown (404). */
const COMPANIES = Array.from({ length: 9 }, (_, i) => `00000000-0000-4000-8000-00000000000${i + 1}`);
const PERIODS = [2021, 2022, 2023, 2024, -1, -2];

/**
 * Billed requests of every kind (first access, repeat, 204, 402 near zero, search, list, 404)
 * from many connections to N instances on one database, while instances are SIGKILLed and
 * restarted and (on PostgreSQL) database connections are cut. Then the ledger is audited
 * against every answer the clients received.
 */
export async function runFaults(options: FaultOptions): Promise<FaultReport> {
  const { scratch } = options;
  const log = options.log ?? (() => undefined);
  const random = prng(options.seed ?? 1);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const rich: ToolAccount[] = [];
  const poor: ToolAccount[] = [];
  for (let i = 0; i < 12; i += 1) rich.push(await scratch.account(1_000_000));
  for (let i = 0; i < 8; i += 1) poor.push(await scratch.account(20 + Math.floor(random() * 60)));
  const accounts = [...rich, ...poor];

  const env: Record<string, string> = {
    CORPDATA_DATABASE: scratch.url,
    CORPDATA_SECRET: TOOL_SECRET,
    CORPDATA_DEMO: 'off',
    CORPDATA_POOL_SIZE: '4',
    CORPDATA_SYNC_INTERVAL_MS: '250',
    // A limit never reached: the default 100/s per key would answer most of the load 429 and leave
    // the billing under faults untried.
    CORPDATA_RATE_LIMIT: '1000000/s',
    LOG_LEVEL: 'fatal',
  };
  const instances: Instance[] = [];
  for (let i = 0; i < options.instances; i += 1) instances.push(new Instance(await freePort(), env));
  await Promise.all(instances.map((i) => i.start()));
  log(`${instances.length} instance(s) up on ${options.dialect}`);

  const observed: Observations = { byRequestId: new Map(), unanswered: 0 };
  const byStatus: Record<string, number> = {};
  const discrepancies: string[] = [];
  let sent = 0;
  let answered = 0;
  let kills = 0;
  let restarts = 0;
  let disconnects = 0;
  let grants = 0;
  const started = Date.now();
  const deadline = started + options.seconds * 1000;
  const running = () => sent < options.requests && Date.now() < deadline;

  const target = (): string => {
    const r = random();
    if (r < 0.7) return `/api/v1/revenues?company_id=${pick(COMPANIES)}&reporting_period=${pick(PERIODS)}`;
    if (r < 0.95) return `/api/v1/companies/search?query=${pick(['alpha', 'beta', 'gam', 'twin', 'zeta', 'nothing'])}`;
    return '/api/v1/companies/list';
  };

  const worker = async () => {
    while (running()) {
      const up = instances.filter((i) => i.up);
      if (up.length === 0) {
        await sleep(20);
        continue;
      }
      const instance = pick(up);
      const account = random() < 0.7 ? pick(rich) : pick(poor);
      sent += 1;
      try {
        const res = await fetch(instance.url + target(), { headers: { authorization: `Bearer ${account.key}` } });
        await res.arrayBuffer();
        answered += 1;
        byStatus[res.status] = (byStatus[res.status] ?? 0) + 1;
        const id = res.headers.get('x-request-id');
        const num = (n: string) => (res.headers.get(n) === null ? null : Number(res.headers.get(n)));
        if (id === null) discrepancies.push(`a ${res.status} without X-Request-Id`);
        else observed.byRequestId.set(id, { status: res.status, cost: num('x-credit-cost'), balance: num('x-credit-balance') });
      } catch (error) {
        const code = (error as { cause?: { code?: string } }).cause?.code;
        // A refused connection carried no request; anything else may have reached the server.
        if (code === 'ECONNREFUSED') sent -= 1;
        else observed.unanswered += 1;
      }
    }
  };

  const killer = async () => {
    while (running()) {
      await sleep(options.killEveryMs * (0.5 + random()));
      if (!running()) break;
      const victim = pick(instances.filter((i) => i.up));
      if (victim === undefined) continue;
      await victim.kill('SIGKILL');
      kills += 1;
      await sleep(100 + random() * 900);
      await victim.start();
      restarts += 1;
    }
  };

  const cutter = async () => {
    if (scratch.adminUrl === null) return;
    const database = new URL(scratch.url).pathname.slice(1);
    while (running()) {
      await sleep(options.cutEveryMs * (0.5 + random()));
      if (!running()) break;
      const admin = new pg.Client({ connectionString: scratch.adminUrl });
      try {
        await admin.connect();
        const ended = await admin.query(
          'select pg_terminate_backend(pid) as ended from pg_stat_activity where datname = $1 and pid <> pg_backend_pid() and random() < 0.6',
          [database],
        );
        disconnects += ended.rowCount ?? 0;
      } finally {
        await admin.end().catch(() => undefined);
      }
    }
  };

  // Near-zero accounts get a little now and then, so they keep crossing zero under load.
  const granter = async () => {
    const db = connect(scratch.config, { poolSize: 1 });
    try {
      while (running()) {
        await sleep(500);
        try {
          await grantCredits(db.kysely, pick(poor).accountId, 25, new Date().toISOString());
          grants += 1;
        } catch {
          // a connection cut mid-grant: the grant is whole or absent, the audit checks either way
        }
      }
    } finally {
      await db.close();
    }
  };

  const progress = setInterval(() => log(`${sent} requests, ${kills} kills, ${disconnects} disconnects`), 10_000);
  try {
    await Promise.all([...Array.from({ length: options.connections }, worker), killer(), cutter(), granter()]);
  } finally {
    clearInterval(progress);
    await Promise.all(instances.map((i) => i.kill('SIGTERM')));
  }

  const audited = connect(loadConfig({ CORPDATA_DATABASE: scratch.url }).database, { poolSize: 1 });
  try {
    const audit = await auditLedger(audited.kysely, observed);
    const crashes = instances.reduce((n, i) => n + i.crashes, 0);
    if (crashes > 0) discrepancies.push(`${crashes} instance exit(s) nobody asked for`);
    const byAccount = new Set(accounts.map((a) => a.accountId));
    if (audit.accounts !== byAccount.size) discrepancies.push(`expected ${byAccount.size} accounts, found ${audit.accounts}`);
    return {
      database: options.dialect,
      instances: options.instances,
      seconds: Math.round((Date.now() - started) / 1000),
      requests: sent,
      answered,
      unanswered: observed.unanswered,
      byStatus,
      kills,
      restarts,
      disconnects,
      crashes,
      failedStarts: instances.reduce((n, i) => n + i.failedStarts, 0),
      grants,
      charges: audit.charges,
      unseenCharges: audit.unseenCharges,
      discrepancies: [...discrepancies, ...audit.discrepancies].slice(0, 50),
    };
  } finally {
    await audited.close();
  }
}
