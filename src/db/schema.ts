import type { Generated } from 'kysely';

/**
 * Table types of the corpdata schema. Timestamps are ISO 8601 UTC strings and money and values
 * are integers (BIGINT), identical on SQLite and PostgreSQL.
 */
export interface Database extends FigureTables {
  versions: VersionTable;
  settings: SettingTable;
  companies: CompanyTable;
  company_identifiers: CompanyIdentifierTable;
  listings: ListingTable;
  documents: DocumentTable;
  fx_rates: FxRateTable;
  accounts: AccountTable;
  api_keys: ApiKeyTable;
  ledger: LedgerTable;
  purchases: PurchaseTable;
  account_subscriptions: AccountSubscriptionTable;
  ghg_points: GhgPointTable;
  console_sessions: ConsoleSessionTable;
  esef_filings: EsefFilingTable;
  sync_files: SyncFileTable;
  sync_locks: SyncLockTable;
  source_polls: SourcePollTable;
  events: EventTable;
  event_marks: EventMarkTable;
  webhook_endpoints: WebhookEndpointTable;
  webhook_deliveries: WebhookDeliveryTable;
  webhook_attempts: WebhookAttemptTable;
}

/** An account's webhook endpoint (design §20.4); its signing secret stored encrypted. */
export interface WebhookEndpointTable {
  endpoint_id: string;
  account_id: string;
  url: string;
  /** Comma-separated event types. */
  event_types: string;
  /** Comma-separated company ids (the watchlist), or null for every company. */
  company_ids: string | null;
  /** Comma-separated dataset names, or null for every dataset. */
  datasets: string | null;
  secret: string;
  /** `active`, or `failing` once a delivery ran out of tries. */
  status: string;
  /** The last event considered for this endpoint: deliveries are made from the events after it. */
  last_event_id: number;
  created_at: string;
  deleted_at: string | null;
}

export interface WebhookDeliveryTable {
  delivery_id: Generated<number>;
  endpoint_id: string;
  event_id: number;
  /** The JSON body sent, fixed when the delivery is made. */
  payload: string;
  /** `pending`, `delivered` or `failed`. */
  status: string;
  tries: number;
  next_try_at: string;
  /** While a deliverer holds it; a lapsed lease lets another take it. */
  leased_until: string | null;
  created_at: string;
}

export interface WebhookAttemptTable {
  attempt_id: Generated<number>;
  delivery_id: number;
  endpoint_id: string;
  attempted_at: string;
  response_status: number | null;
  latency_ms: number;
  error: string | null;
}

/**
 * The outbox of changes a buyer may watch (design §20.3), written in the transaction of each
 * change; `points_table` is the dataset's table of points (the API names the dataset). No value.
 */
export interface EventTable {
  event_id: Generated<number>;
  type: string;
  occurred_at: string;
  company_id: string | null;
  points_table: string | null;
  reporting_period: number | null;
  document_id: string | null;
  point_id: string | null;
  /** `company.merged`: the former company_id, merged into `company_id`. */
  merged_company_id: string | null;
}

/** What the events have told of each point so far: the next write tells only what changed. */
export interface EventMarkTable {
  points_table: string;
  point_id: string;
  company_id: string;
  reporting_period: number;
  fingerprint: string;
}

/** Counters bumped by writers so every instance notices imports and revocations. */
export interface VersionTable {
  name: string;
  version: number;
}

export interface SettingTable {
  name: string;
  value: string;
}

export interface CompanyTable {
  company_id: string;
  name: string;
  country: string | null;
  lei: string | null;
  /** SEC Central Index Key, ten digits with leading zeros: how filings find their company. */
  cik: string | null;
}

/** What a company's identifier is: a former company_id merged into it, or another CIK or LEI. */
export type CompanyIdentifierKind = 'company_id' | 'cik' | 'lei';

/**
 * An identifier a company holds beyond its own row (design §19.4), which came with a company merged
 * into it: every lookup by that identifier finds this company.
 */
export interface CompanyIdentifierTable {
  kind: CompanyIdentifierKind;
  value: string;
  company_id: string;
}

export interface ListingTable {
  company_id: string;
  ticker: string;
  mic_code: string;
  isin: string | null;
  is_primary: number;
  /** Order in which listings were added; breaks ties between listings of one ticker. */
  added_seq: number;
}

export type DocumentStatus = 'pending' | 'processed' | 'failed';

/**
 * What a document is (design §1.4): an annual report or filing (revenues) or a sustainability
 * report (GHG emissions). A dataset's periods come only from processed documents of its kind.
 */
export type DocumentKind = 'financial' | 'sustainability';
export const DOCUMENT_KINDS: readonly DocumentKind[] = ['financial', 'sustainability'];

export interface DocumentTable {
  document_id: string;
  company_id: string;
  title: string;
  source_url: string;
  /** YYYY-MM-DD; empty when the source gives no publication date (a sustainability report may not). */
  published_on: string;
  reporting_period: number;
  status: DocumentStatus;
  kind: Generated<DocumentKind>;
  /** For a filing: its SEC form (10-K, 20-F/A…) and accession number; null for other documents. */
  form: string | null;
  accession: string | null;
  /** For a filing: its main document (primary HTML), from SEC submissions; null when not recorded. */
  main_document_url: string | null;
  /**
   * Where the document came from and the source's key for it (design §15): `sec` and the accession
   * number, `esef` and the report's `fxo_id`, `bundle` and the document_id. Unique together.
   */
  source: string | null;
  source_key: string | null;
  /**
   * When its figures began to be served (design §20.2): the write that made it processed; null while
   * it is not, empty for a document served before this was recorded.
   */
  served_at: string | null;
}

/**
 * The money figure tables, one per dataset of figures (design §17), all of one shape
 * ({@link FigurePointTable}): the kit's queries take any of them by name ({@link FigureTableName}),
 * typed, and a new dataset adds its table here beside its migration (`createFigureTable`). A test
 * composing a dataset on a table of its own adds that table by augmenting this interface in its
 * own files (`declare module`), which the build of the product never reads.
 */
export interface FigureTables extends Record<LineItemTableName, FigurePointTable> {
  revenue_points: FigurePointTable;
  net_income_points: FigurePointTable;
}

/**
 * The figure tables of the statements' line items (design §18), one per row of the datasets'
 * line-item table (`src/datasets/line-items/line-items.ts`, whose test holds the two lists alike):
 * `migrate` creates each that is missing, so a new line item needs no migration of its own.
 */
export const LINE_ITEM_TABLES = [
  'gross_profit_points',
  'operating_income_points',
  'pretax_income_points',
  'eps_diluted_points',
  'total_assets_points',
  'total_liabilities_points',
  'equity_points',
  'cash_points',
  'operating_cash_flow_points',
  'capital_expenditure_points',
] as const;

/** The name of a line item's figure table. */
export type LineItemTableName = (typeof LINE_ITEM_TABLES)[number];

/** The name of a money figure table. */
export type FigureTableName = keyof FigureTables & string;

/** A money figure table's columns (`createFigureTable`, src/db/figure-table.ts): every one has exactly these. */
export interface FigurePointTable {
  point_id: string;
  company_id: string;
  document_id: string;
  reporting_period: number;
  original_value: number | null;
  original_ccy: string;
  value_usd: number;
  /** USD per unit of original_ccy as an exact decimal string; "1" for USD. */
  fx_rate: string;
  fx_source: string;
  /** For a filed figure: the XBRL concept it was read from (us-gaap:Revenues) and its period. */
  concept: string | null;
  period_start: string | null;
  period_end: string | null;
  /** The other revenue concepts the filing tagged for the period: `concept=value` pairs, space-separated. */
  candidates: string | null;
  /** Later documents that repeated the figure rounded: `document_id=value` pairs, space-separated. */
  confirmed_by: string | null;
  /** What the figure's source shows of its fact on the trace page (JSON list of labelled fields); null for most sources. */
  source_detail: string | null;
}

export interface FxRateTable {
  currency: string;
  year: number;
  usd_per_unit: string;
  source: string;
}

export type Subscription = 'revenues' | 'none';

export interface AccountTable {
  account_id: string;
  email: string;
  balance: number;
  subscription: Subscription;
  password_hash: string | null;
  created_at: string;
}

export interface ApiKeyTable {
  key_id: string;
  account_id: string;
  name: string;
  /** First characters of the key's signature, enough to recognise it, useless to forge it. */
  display_prefix: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** `adjustment`: an operator's correction of a balance, either sign, its reason in `detail` (design §6). */
export type LedgerKind = 'grant' | 'charge' | 'adjustment';

export interface LedgerTable {
  entry_id: Generated<number>;
  account_id: string;
  amount: number;
  balance_after: number;
  kind: LedgerKind;
  endpoint: string | null;
  key_id: string | null;
  company_id: string | null;
  reporting_period: number | null;
  request_id: string | null;
  created_at: string;
  /**
   * What the charge was for beyond endpoint and company-period (a company search's query), or an
   * adjustment's reason; else null.
   */
  detail: string | null;
}

export interface PurchaseTable {
  account_id: string;
  /** The dataset bought (design §13): one company-period bought in one dataset is not bought in another. */
  dataset: string;
  company_id: string;
  reporting_period: number;
  created_at: string;
}

/** One subscription an account holds (a dataset's `subscription`, e.g. `revenues`, `ghg`). */
export interface AccountSubscriptionTable {
  account_id: string;
  subscription: string;
}

export type GhgScope = '1' | '2-location' | '2-market' | '3';
export type GhgUnit = 't' | 'kt' | 'Mt';

/** A reported greenhouse-gas figure, normalized to whole tonnes of CO2e; the figure as given is kept. */
export interface GhgPointTable {
  point_id: string;
  company_id: string;
  document_id: string;
  reporting_period: number;
  scope: GhgScope;
  /** tCO2e, rounded half away from zero. */
  value: number;
  /** The figure as the bundle gave it, in `source_unit`. */
  source_value: string;
  source_unit: GhgUnit;
  /** Page of the report holding it, where known. */
  page: string | null;
}

export interface ConsoleSessionTable {
  session_id: string;
  account_id: string;
  csrf_token: string;
  created_at: string;
  expires_at: string;
}

/** A report in filings.xbrl.org's index (design §14.5); URLs absolute, timestamps ISO 8601 UTC. */
export interface EsefFilingTable {
  fxo_id: string;
  filing_id: string | null;
  country: string | null;
  lei: string | null;
  entity_name: string | null;
  period_end: string;
  date_added: string | null;
  processed: string | null;
  report_url: string | null;
  viewer_url: string | null;
  json_url: string | null;
  package_url: string | null;
}

/** A source file `sync` fetched and ingested, with the validators to ask for it conditionally next time. */
export interface SyncFileTable {
  /** The source it came from: `sec`, … */
  source: string;
  /** The file's path under the source's base (e.g. `submissions/CIK0000320193.json`): stable across base URLs. */
  file_key: string;
  url: string;
  etag: string | null;
  last_modified: string | null;
  bytes: number;
  /** When it was fetched (ISO 8601, UTC). */
  fetched_at: string;
}

/** A source's last polls (design §20.2): each `sync` of it ends as one or the other. */
export interface SourcePollTable {
  source: string;
  last_success_at: string | null;
  last_error_at: string | null;
  last_error: string | null;
}

/** The lease one running sync holds on a database; renewed while it runs. */
export interface SyncLockTable {
  name: string;
  /** A random token of the holder's run: only it renews or releases the lease. */
  owner: string;
  host: string;
  pid: number;
  acquired_at: string;
  expires_at: string;
}
