import type { TSchema } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import type { Database, DocumentKind } from '../db/schema.js';
import type { DatasetBundle } from '../ingest/core/dataset-bundle.js';
import type { FigureSpec } from '../ingest/core/figure-spec.js';
import type { CompanyData } from './period-data.js';

/** What a dataset's calls cost (credits); errors are free whatever the dataset. */
export interface DatasetPrices {
  /** A 200 for a company-period the account has not bought in this dataset. */
  firstAccess: number;
  /** A 200 for a company-period bought before in this dataset. */
  repeat: number;
  /** A 204: the period is covered, the dataset has no figure for it. */
  noData: number;
}

/**
 * Who looks at a trace page, decided once for every dataset and both forms (HTML and JSON) by
 * `accessOf` (trace/trace-lookup.ts): values are shown only for `bought`, which means a point the
 * API serves (`TracePoint.served`) of a company-period the account bought in the point's dataset.
 * `not-served`: a point of a pending or failed document, whose values nobody sees.
 */
export type TraceAccess = 'signed-out' | 'not-bought' | 'not-served' | 'bought';

/** A data point found by its trace id, ready to be shown. */
export interface TracePoint {
  /** The company-period whose purchase (in this dataset) shows the point's values. */
  readonly subject: { companyId: string; period: number };
  /**
   * True when the dataset's API answers serve this point: its document is processed and, for a
   * point made of others (an intensity), it is exactly the pairing the dataset's answer uses.
   */
  readonly served: boolean;
  /** The HTML page of `/trace/{id}`. */
  page(access: TraceAccess, publicUrl: string): Promise<string>;
  /**
   * The same facts as data (design §11.3): `GET /api/v1/trace/{id}` and `/trace/{id}` asked for
   * JSON. Values only for `bought`, as on the page; its schema is the dataset's
   * `provenanceSchema` (a point without this hook answers those 404).
   */
  provenance?(access: TraceAccess, publicUrl: string): Promise<Record<string, unknown>>;
}

/**
 * One valid row of a dataset's bundle file, so a test can build data for any dataset without
 * knowing it (test/datasets.contract.test.ts imports the row for one company-period and runs
 * the shared contract on it).
 */
export interface DatasetExample {
  /** The bundle file the row belongs to (the dataset's `bundle.file` where it has one). */
  readonly file: string;
  /** The kind of the document (documents.csv `kind`) whose figures the row holds. */
  readonly documentKind: DocumentKind;
  /**
   * Every column the row needs but `company_id`, `document_id` and `reporting_period`, which the
   * test fills in; the figure must be one the dataset serves as given (a 200 with records).
   */
  readonly row: Readonly<Record<string, string>>;
}

/**
 * One dataset of the API, declared in one place (design §13): billing, purchases, subscriptions,
 * the route, the OpenAPI document, mock data, trace pages and the bundle go through this and
 * name no dataset, so a new dataset is a folder and one line in the registry.
 */
export interface Dataset<R = unknown> {
  /** Also the purchase key's dataset and the ledger's endpoint: never renamed once data is sold. */
  readonly name: string;
  /** What people call it (the console's ledger and purchases). */
  readonly label: string;
  /** The subscription an account needs (several datasets may share one). */
  readonly subscription: string;
  /** Route and OpenAPI texts; the query parameters are those of every dataset (design §1). */
  readonly route: {
    path: string;
    operationId: string;
    /** Of `{path}/periods`, the free list of available periods (design §11.2). */
    periodsOperationId: string;
    summary: string;
    description: string;
    tag: string;
    /** What the OpenAPI document says of the tag (the first dataset of a tag says it). */
    tagDescription: string;
    ok: string;
    noData: string;
    forbidden: string;
  };
  /** One record of a 200 body (an array of them). */
  readonly recordSchema: TSchema;
  /** What its points' `provenance` answers (titled: the OpenAPI document names it), when they have one. */
  readonly provenanceSchema?: TSchema;
  readonly prices: DatasetPrices;
  /**
   * A company's available periods and their records. The periods are also what a per-dataset
   * "available periods" query answers.
   */
  load(db: Kysely<Database>, companyId: string, publicUrl: string): Promise<CompanyData<R>>;
  /** Test-token records (design §1.11): deterministic, plausible, written nowhere. */
  mock(identifier: string, requestedPeriod: number, publicUrl: string): R[];
  /** Finds one of this dataset's data points by its trace id (undefined: not one of ours). */
  trace?(db: Kysely<Database>, id: string): Promise<TracePoint | undefined>;
  /**
   * The table holding the dataset's points (with `company_id`, `document_id`, `reporting_period`),
   * counted on the home page; none for a dataset derived from others (intensity).
   */
  readonly pointsTable?: keyof Database & string;
  /** The dataset's own bundle file, when it has one beside the core files. */
  readonly bundle?: DatasetBundle;
  /**
   * For a dataset of figures read from filings (revenues, net income): the concepts it reads and
   * the table it fills. Every filings ingest (`ingest sec-*`, `ingest esef`, `sync`) and the demo
   * builder fill each such dataset by the same rules (design §10, §14).
   */
  readonly figures?: FigureSpec;
  /**
   * True for a line of the financial statements (every money figure dataset of the kit): the
   * statement call `GET /api/v1/fundamentals` answers and bills it beside the others the account
   * may buy (design §18.3), with no change there for a new one.
   */
  readonly statementItem?: boolean;
  /**
   * The OpenAPI document's 200 examples of the dataset's operations, by operationId (its call,
   * periods, history and batch): real answers of the demo, which `test/openapi.examples.test.ts`
   * replays against it. Without them the document shows no example for those operations.
   */
  openApiExamples?(publicUrl: string): Readonly<Record<string, unknown>>;
  /**
   * One valid row of its bundle file, for the contract test. A dataset made of others' figures
   * (an intensity) has none: it must answer with records where every example is imported.
   */
  readonly example?: DatasetExample;
}
