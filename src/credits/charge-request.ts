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
  /** Kept on the charge's ledger line (a company search's query), so the account holder sees what was paid for. */
  detail?: string;
  /** Also stamp the key's last use, in the same transaction (the caller throttles how often). */
  touchKey?: boolean;
}

/** `ok: false` means the balance was below `cost` and nothing was charged. */
export interface ChargeResult {
  ok: boolean;
  cost: number;
  balance: number;
}
