import type { KeyVerifier } from './auth/verify-key.js';
import type { Catalog } from './catalog/catalog.js';
import type { Config } from './config.js';
import type { Biller } from './credits/charge.js';
import type { Dataset } from './datasets/dataset.js';
import type { Db } from './db/connect.js';

/** Everything a request handler may use, built once by {@link buildApp} from a config. */
export interface AppContext {
  readonly config: Config;
  readonly db: Db;
  readonly clock: () => Date;
  /** The datasets this app serves, composed once by {@link buildApp}; nothing below it imports a list. */
  readonly datasets: readonly Dataset[];
  /** Every subscription those datasets need, in the order answers list them. */
  readonly subscriptions: readonly string[];
  /** The current catalog; rebuilt after an import anywhere moves the data version. */
  catalog(): Promise<Catalog>;
  /** Registers what to drop (a dataset's cache) when an import anywhere moves the data version. */
  onDataChange(listener: () => void): void;
  readonly verifier: KeyVerifier;
  readonly billing: Biller;
  /** True when the key's last-use stamp is due (at most once a minute), to keep writes rare. */
  keyUseDue(keyId: string, nowMs: number): boolean;
}
