import type { FigureTableName } from '../../../db/schema.js';
import type { DatasetPrices } from '../../dataset.js';

/**
 * What a "money figure per company-period from documents" dataset declares (revenues, net
 * income): the kit turns it into the loader, mock, trace page and provenance. Its figures live in
 * a table of their own with exactly the columns of `revenue_points` (`createFigureTable`, src/db/figure-table.ts, for its migration).
 */
export interface MoneyFigureSpec {
  /** The dataset's name: the purchase key, the ledger's endpoint, the buy link. */
  readonly dataset: string;
  /** The figure table (`FigureTables` in src/db/schema.ts: columns as every figure table's). */
  readonly table: FigureTableName;
  /** The records' `metric` text, also the trace page's title ("Total Revenue"). */
  readonly metric: string;
  /**
   * The key of its point ids (`{pointKey}-point:{document}:{period}`, {@link figurePointId}): its
   * own, so no id of one dataset is another's (the trace route asks each dataset in turn).
   */
  readonly pointKey: string;
  /** Seed of the test token's figures, so each dataset's mock differs. */
  readonly mockSeed: string;
  /** What the mock serves: `value` in USD per seed draw; a dataset whose figures may be negative says so. */
  readonly mockSign?: 'positive' | 'either';
  readonly prices: DatasetPrices;
  /** `year end`: its figures are balances at fiscal-year ends (design §18.1); `year` (default): amounts over the year. */
  readonly period?: 'year' | 'year end';
  /**
   * Its figures are per share (design §18.2): records carry `unit`/`original_unit` and decimal
   * values; stored in millionths (`PER_SHARE_SCALE`), the USD value rounded to 4 decimals.
   */
  readonly perShare?: true;
  /**
   * Its bundle file (`revenues.csv`, `net_income.csv`), staged, checked, applied and exported by
   * the kit (`figureBundle`).
   */
  readonly bundleFile?: string;
  /**
   * The name of its file's currency column: `ccy` (the default, as the records name it), or
   * `currency` for `revenues.csv`, whose columns are a contract older than the kit (design §5).
   */
  readonly bundleCurrencyColumn?: 'ccy' | 'currency';
  /**
   * Its file is counted in every import and export summary and written by every export, even
   * empty (`DatasetBundle.alwaysListed`): `revenues.csv`, which bundles have always held.
   */
  readonly bundleAlwaysListed?: boolean;
  /**
   * Read from filings (design §10, §14): the concepts per taxonomy, most preferred first, and the
   * metric in running text. With a `bundleFile`, the kit declares the dataset's figure spec, so
   * every filings ingest and the demo fill its table.
   */
  readonly filed?: {
    readonly noun: string;
    readonly concepts: Readonly<Record<string, readonly string[]>>;
    /** The statements' arithmetic a candidate must pass (design §18.4; `FigureSpec.guard`), if any. */
    readonly guard?: Readonly<Record<string, readonly string[]>>;
    /** Other lines of the same filing and period stored beside each figure (design §18.5; `FigureSpec.companions`). */
    readonly companions?: Readonly<Record<string, readonly string[]>>;
  };
  /** The words of the record schema, the provenance schema and the trace page. */
  readonly wording: {
    /** Schema titles: the OpenAPI document names them. */
    recordTitle: string;
    provenanceTitle: string;
    /** `value`'s description ("Total revenue in USD."). */
    value: string;
    /** `original_value`'s description in a record ("Revenue as reported, in original_ccy."). */
    originalValue: string;
    /** What the buy offer calls the dataset ("revenues"). */
    offerLabel: string;
    /** The concepts a filing tags for this figure, in words ("revenue concept"). */
    concept: string;
    /** How the concept and the period were chosen, shown under a filed figure. */
    conceptRule: string;
  };
}
