import { type Kysely, sql } from 'kysely';
import type { Dataset } from '../datasets/dataset.js';
import { API_YEARS } from '../datasets/period-data.js';
import type { Database } from '../db/schema.js';

/** Figures of one dataset stored as points of its own table. */
export interface DatasetCoverage {
  companies: number;
  points: number;
  firstYear: number | null;
  lastYear: number | null;
}

/** What the service covers, for the home page. */
export interface Coverage {
  companies: number;
  listings: number;
  exchanges: number;
  countries: number;
  /** By dataset name, for the datasets whose figures are points of a table (not derived ones). */
  datasets: ReadonlyMap<string, DatasetCoverage>;
  secFilings: number;
  otherDocuments: number;
  sourceSites: number;
}

/**
 * Counts over processed documents only: a pending or failed document serves nothing; and years
 * the API answers only (design §11.2), as the periods endpoints list them. A dataset
 * is counted from its `pointsTable`; a derived one (intensity) has none.
 */
export async function loadCoverage(db: Kysely<Database>, datasets: readonly Dataset[]): Promise<Coverage> {
  const [companies, listings, docs, ...points] = await Promise.all([
    db
      .selectFrom('companies')
      .select([
        (eb) => eb.fn.countAll<string | number>().as('n'),
        (eb) => eb.fn.count<string | number>('country').distinct().as('countries'),
      ])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('listings')
      .select([
        (eb) => eb.fn.countAll<string | number>().as('n'),
        (eb) => eb.fn.count<string | number>('mic_code').distinct().as('exchanges'),
      ])
      .executeTakeFirstOrThrow(),
    db.selectFrom('documents').select(['form', 'source_url']).where('status', '=', 'processed').execute(),
    ...datasets
      .flatMap(({ name, pointsTable: table }) => (table === undefined ? [] : [{ name, table }]))
      .map(async ({ name, table }) => {
        const { rows } = await sql<{
          companies: string | number;
          points: string | number;
          first: number | null;
          last: number | null;
        }>`
        select count(distinct p.company_id) as companies, count(*) as points,
               min(p.reporting_period) as first, max(p.reporting_period) as last
        from ${sql.table(table)} p join documents d on d.document_id = p.document_id
        where d.status = 'processed'
          and p.reporting_period between ${API_YEARS.first} and ${API_YEARS.last}`.execute(db);
        const r = rows[0];
        return [
          name,
          {
            companies: Number(r?.companies ?? 0),
            points: Number(r?.points ?? 0),
            firstYear: r?.first ?? null,
            lastYear: r?.last ?? null,
          },
        ] as const;
      }),
  ]);
  const hosts = new Set(docs.map((d) => /^https?:\/\/([^/]+)/i.exec(d.source_url)?.[1]?.toLowerCase() ?? ''));
  hosts.delete('');
  const filings = docs.filter((d) => d.form !== null).length;
  return {
    companies: Number(companies.n),
    listings: Number(listings.n),
    exchanges: Number(listings.exchanges),
    countries: Number(companies.countries),
    datasets: new Map(points),
    secFilings: filings,
    otherDocuments: docs.length - filings,
    sourceSites: hosts.size,
  };
}
