/** What the search ranks: one company with its name, every ticker it trades under, and its identifiers. */
export interface SearchEntry {
  readonly companyId: string;
  readonly name: string;
  readonly tickers: readonly string[];
  readonly isins?: readonly string[];
  readonly lei?: string | null;
  /** SEC Central Index Key, digits with or without leading zeros. */
  readonly cik?: string | null;
  /**
   * 0 to `MAX_PROMINENCE` (see `prominence.ts`): among companies that match
   * a query equally well, the more prominent comes first. 0 when not given.
   */
  readonly prominence?: number;
}
