import { sql } from 'kysely';
import type { Db } from '../db/connect.js';
import { fixedTransaction } from '../db/fixed-transaction.js';
import { chargeAll } from './charge-all.js';
import { type BatchOutcome, chargeBatch } from './charge-batch.js';
import { chargeFunction } from './charge-function.js';
import type { ChargeRequest, ChargeResult } from './charge-request.js';

export type { ChargeRequest, ChargeResult };

interface Pending {
  req: ChargeRequest;
  resolve(result: ChargeResult): void;
  reject(error: unknown): void;
}

const MAX_BATCH = 256;

/**
 * Batches in flight at once on PostgreSQL, each on its own connection (SQLite runs one batch at a
 * time, synchronously). No two of them hold calls of the same account.
 */
const POSTGRES_BATCHES_IN_FLIGHT = 4;

/**
 * Charges calls with group commit: calls that arrive while a transaction is running wait and are
 * charged together in the next one, each checked on its own (see {@link chargeBatch}), and no
 * call is answered before the transaction holding its charge has committed. One transaction then
 * carries many charges, which is what makes the billed path cheap on both databases.
 *
 * On PostgreSQL a batch is one statement, one round trip (see {@link chargeFunction}), and several
 * batches run at once, partitioned by account: a batch takes the queued calls of accounts that no
 * batch in flight holds, so an account's calls are charged in arrival order, one batch after the
 * other. Batches of several instances may hold the same account; their locks are taken in one
 * global order, so they wait for each other but cannot deadlock.
 */
export class Biller {
  readonly #transact: (requests: readonly ChargeRequest[]) => Promise<BatchOutcome[]>;
  readonly #maxInFlight: number;
  readonly #chargeAll: (requests: readonly ChargeRequest[]) => Promise<ChargeResult>;
  #queue: Pending[] = [];
  /** Accounts with calls in a batch in flight. */
  readonly #busy = new Set<string>();
  #inFlight = 0;
  #scheduled = false;

  constructor(private readonly db: Db) {
    this.#chargeAll = chargeAll(db);
    if (db.dialect === 'postgres') {
      this.#transact = chargeFunction(db);
      this.#maxInFlight = POSTGRES_BATCHES_IN_FLIGHT;
    } else {
      const transaction = fixedTransaction(db);
      this.#transact = (requests) => transaction(() => chargeBatch(requests));
      this.#maxInFlight = 1;
    }
  }

  charge(req: ChargeRequest): Promise<ChargeResult> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ req, resolve, reject });
      if (!this.#scheduled && this.#inFlight < this.#maxInFlight) {
        // Start on the next turn of the event loop, so calls whose requests arrived together share it.
        this.#scheduled = true;
        setImmediate(() => {
          this.#scheduled = false;
          this.#pump();
        });
      }
    });
  }

  /**
   * Charges the parts of one call (all of one account) together, all or nothing: see
   * {@link chargeAll}. The result's cost is the parts' sum; refused, nothing was charged.
   */
  chargeAll(requests: readonly ChargeRequest[]): Promise<ChargeResult> {
    return this.#chargeAll(requests);
  }

  async balanceOf(accountId: string): Promise<number> {
    const { rows } = await sql<{ balance: number }>`select balance from accounts where account_id = ${accountId}`.execute(
      this.db.kysely,
    );
    return Number(rows[0]?.balance ?? 0);
  }

  /** Starts batches while there is room and queued calls of accounts no batch in flight holds. */
  #pump(): void {
    while (this.#inFlight < this.#maxInFlight) {
      const batch = this.#takeBatch();
      if (batch.length === 0) return;
      this.#inFlight += 1;
      const accounts = new Set(batch.map((p) => p.req.accountId));
      for (const a of accounts) this.#busy.add(a);
      void this.#runBatch(batch).finally(() => {
        for (const a of accounts) this.#busy.delete(a);
        this.#inFlight -= 1;
        this.#pump();
      });
    }
  }

  /** Takes the oldest queued calls of accounts no batch in flight holds, in arrival order. */
  #takeBatch(): Pending[] {
    if (this.#busy.size === 0 && this.#queue.length <= MAX_BATCH) {
      const batch = this.#queue;
      this.#queue = [];
      return batch;
    }
    const batch: Pending[] = [];
    const rest: Pending[] = [];
    for (const p of this.#queue) {
      if (batch.length < MAX_BATCH && !this.#busy.has(p.req.accountId)) batch.push(p);
      else rest.push(p);
    }
    this.#queue = rest;
    return batch;
  }

  async #runBatch(batch: Pending[]): Promise<void> {
    try {
      const outcomes = await this.#transact(batch.map((p) => p.req));
      const retry: Pending[] = [];
      batch.forEach((p, i) => {
        const outcome = outcomes[i];
        if (outcome === undefined || outcome === 'retry') retry.push(p);
        else p.resolve(outcome);
      });
      this.#queue.unshift(...retry);
    } catch (error) {
      if (batch.length === 1) {
        batch[0]?.reject(error);
        return;
      }
      // One failed batch (a deadlock, a dropped connection) must not fail its neighbours: alone, each
      // call either succeeds or fails for its own reason.
      for (const p of batch) await this.#runBatch([p]);
    }
  }
}
