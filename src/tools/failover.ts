import { createAccount } from '../accounts/accounts.js';
import { createKey } from '../auth/api-keys.js';
import { loadConfig } from '../config.js';
import { bundlesOf, subscriptionsOf } from '../datasets/dataset-list.js';
import { DATASETS } from '../datasets/registry.js';
import { connect, type Db } from '../db/connect.js';
import { migrate } from '../db/migrate.js';
import { importBundle } from '../ingest/sources/bundle/import-bundle.js';
import { type FailoverServers, type Ha, startFailoverServers, type Victim } from './failover-servers.js';
import { freePort, Instance, prng } from './faults.js';
import { auditLedger, type Observations } from './ledger-audit.js';
import { FIXTURE_BUNDLE_DIR, TOOL_SECRET, type ToolAccount } from './scratch-database.js';

export type { Ha, Victim } from './failover-servers.js';

export interface FailoverOptions {
  victim: Victim;
  /** Who fails over: a pg_auto_failover formation's monitor, or the tool itself (`manual`). */
  ha: Ha;
  /** Billed load before the kill, and after the promotion (or the standby's return) before the end. */
  beforeMs: number;
  afterMs: number;
  /** `manual` only: how long the dead server goes unnoticed, the monitor's detection, before the tool promotes (or restarts the standby). */
  detectMs: number;
  connections: number;
  seed?: number;
  log?: (line: string) => void;
}

/** Milliseconds from the promotion (or the standby's return) until an instance answered a billed call 200 again. */
export interface Recovery {
  instance: number;
  ms: number | null;
}

export interface FailoverReport {
  victim: Victim;
  ha: Ha;
  instances: number;
  seconds: number;
  requests: number;
  answered: number;
  /** Requests whose connection broke before an answer (none expected: instances are not killed). */
  unanswered: number;
  byStatus: Record<string, number>;
  /** Milliseconds from the start of the load to the SIGKILL of the victim's postmaster. */
  killedAtMs: number;
  /** Milliseconds from the kill to the promotion's end (primary), or to the standby's return. */
  switchMs: number;
  recoveries: Recovery[];
  /** How the old primary came back as a standby (none when the standby was the victim). */
  rejoinedWith: 'pg_rewind' | 'pg_basebackup' | null;
  /** The new standby has replayed everything the new primary wrote, at the end (and, for pg_auto_failover, the monitor has them back as primary and secondary). */
  standbyInSync: boolean;
  /** `pg_autoctl show state` at the end, node:reported state (none for `manual`). */
  monitorStates: string[];
  charges: number;
  multiPart: number;
  /** 503s answered, and those whose charge was made all the same (its ledger line names the 503's request id). */
  unavailable: { answered: number; charged: number; chargedRequestIds: string[] };
  discrepancies: string[];
}

const DATABASE = 'corpdata_ha';
const RECOVERY_LIMIT_MS = 30_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Company ids 1..8 of the fixture bundle, and periods they have (years, and offsets from the latest). */
const COMPANIES = Array.from({ length: 8 }, (_, i) => `00000000-0000-4000-8000-00000000000${i + 1}`);
const PERIODS = [2022, 2023, -1, -2];

interface Answer {
  status: number;
  id: string | null;
  cost: number | null;
  balance: number | null;
}

/**
 * Billed load on two `bin/corpdata serve` instances given the multi-host URL of a primary and its
 * synchronous standby (design §21.2): first purchases, repeats and batches, while the victim's
 * postmaster is SIGKILLed. With `pg_auto_failover` the formation's monitor promotes the standby and
 * the old primary's keeper brings it back as the new standby, the tool only waiting for each; with
 * `manual` the tool does both itself (after `detectMs`, then pg_rewind). A killed standby is
 * restarted (by its keeper, or the tool). Then the ledger on the surviving primary is audited
 * against every answer the clients saw.
 */
export async function runFailover(options: FailoverOptions): Promise<FailoverReport> {
  const log = options.log ?? (() => undefined);
  const random = prng(options.seed ?? 1);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const servers: FailoverServers = await startFailoverServers(options.ha, DATABASE);
  const instances: Instance[] = [];
  let db: Db | undefined;
  try {
    const url = servers.url;
    db = connect(loadConfig({ CORPDATA_DATABASE: url }).database, { poolSize: 2, statementTimeoutMs: 0 });
    await migrate(db);
    await importBundle(db.kysely, FIXTURE_BUNDLE_DIR, bundlesOf(DATASETS));
    const setup = db;
    let n = 0;
    const account = async (credits: number): Promise<ToolAccount> => {
      n += 1;
      const a = await createAccount(
        setup.kysely,
        { email: `ha${n}@example.com`, credits, now: new Date() },
        subscriptionsOf(DATASETS),
      );
      const k = await createKey(setup.kysely, { accountId: a.account_id, name: 'ha', secret: TOOL_SECRET, now: new Date() });
      return { accountId: a.account_id, key: k.api_key };
    };
    const buyers: ToolAccount[] = [];
    for (let i = 0; i < 10; i += 1) buyers.push(await account(100_000));
    const probe = await account(100_000);
    log(servers.description);

    const env: Record<string, string> = {
      CORPDATA_DATABASE: url,
      CORPDATA_SECRET: TOOL_SECRET,
      CORPDATA_DEMO: 'off',
      CORPDATA_POOL_SIZE: '5',
      CORPDATA_RATE_LIMIT: '1000000/s',
      LOG_LEVEL: 'fatal',
    };
    for (let i = 0; i < 2; i += 1) instances.push(new Instance(await freePort(), env));
    await Promise.all(instances.map((i) => i.start()));

    const observed: Observations = { byRequestId: new Map(), unanswered: 0 };
    const unavailable = new Set<string>();
    const byStatus: Record<string, number> = {};
    const discrepancies: string[] = [];
    let sent = 0;
    let answered = 0;
    let stopping = false;

    const call = async (instance: Instance, key: string, init: { path: string; body?: unknown }): Promise<Answer> => {
      const res = await fetch(instance.url + init.path, {
        method: init.body === undefined ? 'GET' : 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      });
      const text = await res.text();
      const num = (h: string) => (res.headers.get(h) === null ? null : Number(res.headers.get(h)));
      const id = res.headers.get('x-request-id');
      if (res.status === 503) {
        if (res.headers.get('retry-after') === null) discrepancies.push(`a 503 without Retry-After (request ${id})`);
        if (id === null || !text.includes(id)) discrepancies.push(`a 503 that does not name its request id ${id}`);
      }
      return { status: res.status, id, cost: num('x-credit-cost'), balance: num('x-credit-balance') };
    };
    const record = (a: Answer) => {
      answered += 1;
      byStatus[a.status] = (byStatus[a.status] ?? 0) + 1;
      if (a.id === null) return void discrepancies.push(`a ${a.status} without X-Request-Id`);
      if (a.status === 503) unavailable.add(a.id);
      else observed.byRequestId.set(a.id, { status: a.status, cost: a.cost, balance: a.balance });
    };
    const job = () => ({ company_id: pick(COMPANIES), reporting_period: pick(PERIODS) });
    const worker = async () => {
      while (!stopping) {
        const instance = pick(instances);
        const buyer = pick(buyers);
        const r = random();
        const request =
          r < 0.85
            ? { path: `/api/v1/revenues?company_id=${pick(COMPANIES)}&reporting_period=${pick(PERIODS)}` }
            : { path: '/api/v1/revenues/batch', body: { jobs: Array.from({ length: 1 + Math.floor(random() * 4) }, job) } };
        sent += 1;
        try {
          record(await call(instance, buyer.key, request));
        } catch {
          observed.unanswered += 1;
        }
        // The clients' pace during the switch: a 503 asks for a retry after a while.
        if (random() < 0.05) await sleep(20);
      }
    };

    // The probe account buys one company-period before the kill; its repeats tell when an instance charges again.
    const repeat = { path: `/api/v1/revenues?company_id=${COMPANIES[0]}&reporting_period=2023` };
    const recoveries: Recovery[] = [];
    const recover = async (since: number) => {
      await Promise.all(
        instances.map(async (instance, i) => {
          let ms: number | null = null;
          while (Date.now() - since < RECOVERY_LIMIT_MS + 5000) {
            try {
              const a = await call(instance, probe.key, repeat);
              record(a);
              if (a.status === 200) {
                ms = Date.now() - since;
                break;
              }
            } catch {
              observed.unanswered += 1;
            }
            await sleep(100);
          }
          recoveries.push({ instance: i, ms });
          if (ms === null || ms > RECOVERY_LIMIT_MS)
            discrepancies.push(`instance ${i} answered no 200 within 30 s of the switch`);
        }),
      );
    };

    const started = Date.now();
    record(await call(pick(instances), probe.key, repeat));
    const load = Array.from({ length: options.connections }, worker);
    await sleep(options.beforeMs);
    const killedAt = Date.now();
    servers.kill(options.victim);
    log(`SIGKILL of the ${options.victim}'s postmaster after ${killedAt - started} ms and ${sent} requests`);
    await servers.switched(options.victim, options.detectMs);
    const switched = Date.now();
    log(`${options.victim === 'primary' ? 'standby promoted' : 'standby back'} ${switched - killedAt} ms after the kill`);
    await recover(switched);
    await sleep(options.afterMs);
    let rejoinedWith: FailoverReport['rejoinedWith'] = null;
    if (options.victim === 'primary') {
      rejoinedWith = await servers.rejoined(log);
      log(`old primary back as standby (${rejoinedWith}) ${Date.now() - killedAt} ms after the kill`);
      await sleep(options.afterMs / 2);
    }
    stopping = true;
    await Promise.all(load);
    await Promise.all(instances.map((i) => i.kill('SIGTERM')));
    const crashes = instances.reduce((k, i) => k + i.crashes, 0);
    if (crashes > 0) discrepancies.push(`${crashes} instance exit(s) nobody asked for`);

    const standbyInSync = await servers.inSync(options.victim);
    const monitorStates = await servers.states();
    if (!standbyInSync) discrepancies.push('the standby did not catch up with the primary within 30 s');

    await db.close();
    db = connect(loadConfig({ CORPDATA_DATABASE: url }).database, { poolSize: 1, statementTimeoutMs: 0 });
    const audit = await auditLedger(db.kysely, observed);
    const lines = await db.kysely.selectFrom('ledger').select(['request_id', 'amount']).where('kind', '=', 'charge').execute();
    const ledgerCost = new Map<string, number>();
    for (const l of lines) ledgerCost.set(l.request_id ?? '', (ledgerCost.get(l.request_id ?? '') ?? 0) - Number(l.amount));
    // Every charged answer the clients saw is in the ledger, at the cost they were told.
    for (const [id, seen] of observed.byRequestId) {
      if ((seen.status === 200 || seen.status === 204) && (seen.cost ?? 0) > 0 && ledgerCost.get(id) !== seen.cost) {
        discrepancies.push(
          `request ${id} answered ${seen.status} costing ${seen.cost}, the ledger has ${ledgerCost.get(id) ?? 'nothing'}`,
        );
      }
    }
    const chargedRequestIds = [...unavailable].filter((id) => ledgerCost.has(id));
    // A charge no client saw is one answered 503 (it names its request id) or one whose answer never came.
    const unexplained = audit.unseenCharges - chargedRequestIds.length;
    if (unexplained > observed.unanswered) discrepancies.push(`${unexplained} charge(s) no client saw nor was told of`);
    if ((byStatus['500'] ?? 0) > 0) discrepancies.push(`${byStatus['500']} answer(s) 500`);
    for (const status of Object.keys(byStatus)) {
      if (!['200', '204', '402', '404', '503'].includes(status)) discrepancies.push(`${byStatus[status]} answer(s) ${status}`);
    }
    return {
      victim: options.victim,
      ha: options.ha,
      instances: instances.length,
      seconds: Math.round((Date.now() - started) / 1000),
      requests: sent,
      answered,
      unanswered: observed.unanswered,
      byStatus,
      killedAtMs: killedAt - started,
      switchMs: switched - killedAt,
      recoveries: recoveries.sort((a, b) => a.instance - b.instance),
      rejoinedWith,
      standbyInSync,
      monitorStates,
      charges: audit.charges,
      multiPart: audit.multiPart,
      unavailable: { answered: unavailable.size, charged: chargedRequestIds.length, chargedRequestIds },
      discrepancies: [...discrepancies, ...audit.discrepancies].slice(0, 50),
    };
  } finally {
    await Promise.all(instances.map((i) => i.kill('SIGKILL')));
    await db?.close();
    servers.remove();
  }
}
