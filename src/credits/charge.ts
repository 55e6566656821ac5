import { sql } from 'kysely';
import type { Db } from '../db/connect.js';
import { type FixedTransaction, fixedTransaction } from '../db/fixed-transaction.js';
import { type BatchOutcome, chargeBatch } from './charge-batch.js';

/** What a billed call asks of the ledger. */
export interface ChargeRequest {
  accountId: string;
  keyId: string | null;
  endpoint: string;
  /** Price when nothing was bought before (or the only price, for calls that buy nothing). */
  price: number;
  /**
   * For a dataset's 200: the dataset's company-period being bought and the price if the account
   * bought it already. Keyed by dataset and resolved period, so -1 and its year are the same
   * purchase and one dataset's purchase is not another's.
   */
  purchase?: { dataset: string; companyId: string; period: number; repeatPrice: number };
  /** For a 204 or other call that records which company-period it was about, without buying it. */
  subject?: { companyId: string; period: number };
  requestId: string;
  at: string;
  /** Also stamp the key's last use, in the same transaction (the caller throttles how often). */
  touchKey?: boolean;
}

/** `ok: false` means the balance was below `cost` and nothing was charged. */
export interface ChargeResult {
  ok: boolean;
  cost: number;
  balance: number;
}

interface Pending {
  req: ChargeRequest;
  resolve(result: ChargeResult): void;
  reject(error: unknown): void;
}

const MAX_BATCH = 256;

/**
 * Charges calls with group commit: calls that arrive while a transaction is running wait and are
 * charged together in the next one, each checked on its own (see {@link chargeBatch}), and no
 * call is answered before the transaction holding its charge has committed. One transaction then
 * carries many charges, which is what makes the billed path cheap on both databases.
 */
export class Biller {
  readonly #transaction: FixedTransaction;
  #queue: Pending[] = [];
  #draining = false;

  constructor(private readonly db: Db) {
    this.#transaction = fixedTransaction(db);
  }

  charge(req: ChargeRequest): Promise<ChargeResult> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ req, resolve, reject });
      if (!this.#draining) {
        // Start on the next turn of the event loop, so calls whose requests arrived together share it.
        this.#draining = true;
        setImmediate(() => void this.#drain());
      }
    });
  }

  async balanceOf(accountId: string): Promise<number> {
    const { rows } = await sql<{ balance: number }>`select balance from accounts where account_id = ${accountId}`.execute(
      this.db.kysely,
    );
    return Number(rows[0]?.balance ?? 0);
  }

  async #drain(): Promise<void> {
    try {
      while (this.#queue.length > 0) await this.#runBatch(this.#takeBatch());
    } finally {
      this.#draining = false;
    }
  }

  /** Takes the oldest queued calls, in arrival order. */
  #takeBatch(): Pending[] {
    return this.#queue.splice(0, MAX_BATCH);
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

  #transact(requests: ChargeRequest[]): Promise<BatchOutcome[]> {
    return this.#transaction(() => chargeBatch(requests));
  }
}
