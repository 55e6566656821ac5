import type { Kysely } from 'kysely';
import { TICKER_MAX_LENGTH } from '../../../catalog/identifiers.js';
import { SEC_EXCHANGE_MIC } from '../../../catalog/sec-exchanges.js';
import { DEFAULT_INGEST_LIMITS, type IngestLimits } from '../../../config.js';
import type { Database } from '../../../db/schema.js';
import { ImportError } from '../../core/issues.js';
import { fileChunks, jsonLimit } from '../../core/json-documents.js';
import { JsonReader } from '../../core/json-reader.js';
import { StageWriter } from '../../core/stage.js';
import { stagedWrite } from '../../core/staged-write.js';
import { normalizeCik, secCompanyId } from './rules.js';

/** One row of SEC's ticker files: the exchange only in company_tickers_exchange.json. */
interface TickerRow {
  cik: string;
  name: string;
  ticker: string;
  exchange: string | null;
}

/** US markets a ticker without an exchange (company_tickers.json) may already be listed on. */
const US_MICS = ['XNYS', 'XNGS', 'XNMS', 'XNCM', 'XASE', 'ARCX', 'BATS', 'OTCM'];

export interface TickersSummary {
  rows: number;
  ciks: number;
  companies_matched: number;
  /** Catalog companies that got their CIK from a listing they already had. */
  ciks_set: number;
  companies_added: number;
  listings_added: number;
  skipped: { no_listing: number; listing_taken: number; bad_ticker: number };
  renormalized: number;
}

/**
 * The top-level members of a ticker file, streamed: `data` (company_tickers_exchange.json) an
 * item at a time, so that no member is larger than one row; each row is kept, nothing else.
 */
async function readMembers(
  path: string,
  limits: IngestLimits,
): Promise<{ object: boolean; members: Map<string, unknown>; data?: unknown[] }> {
  const reader = new JsonReader(fileChunks(path, jsonLimit(limits)), path);
  try {
    const members = new Map<string, unknown>();
    let data: unknown[] | undefined;
    if ((await reader.peek()) !== 0x7b) {
      await reader.skip();
      await reader.end();
      return { object: false, members };
    }
    for await (const key of reader.entries()) {
      if (key === 'data' && (await reader.peek()) === 0x5b) {
        data = [];
        for await (const _ of reader.items()) data.push(await reader.value());
      } else members.set(key, await reader.value());
    }
    await reader.end();
    return data === undefined ? { object: true, members } : { object: true, members, data };
  } finally {
    await reader.close();
  }
}

/** Reads either of SEC's ticker files; a file of neither shape is refused. */
export async function readTickerFile(path: string, limits: IngestLimits = DEFAULT_INGEST_LIMITS): Promise<TickerRow[]> {
  const refuse = (message: string): never => {
    throw new ImportError([{ file: path, line: 0, message }]);
  };
  const { object, members, data: rowList } = await readMembers(path, limits);
  const rows: TickerRow[] = [];
  const add = (cikValue: unknown, name: unknown, ticker: unknown, exchange: unknown, at: string) => {
    const cik = normalizeCik(cikValue);
    if (cik === undefined || typeof name !== 'string' || typeof ticker !== 'string')
      refuse(`${at}: needs a cik, a name and a ticker`);
    rows.push({
      cik: cik as string,
      name: (name as string).trim(),
      ticker: (ticker as string).trim(),
      exchange: typeof exchange === 'string' && exchange !== '' ? exchange : null,
    });
  };
  if (members.has('fields') && (rowList !== undefined || members.has('data'))) {
    // company_tickers_exchange.json: {"fields": ["cik","name","ticker","exchange"], "data": [[…], …]}
    const fields = members.get('fields');
    if (!Array.isArray(fields) || rowList === undefined) return refuse('fields and data must be lists');
    const col = (n: string) => fields.indexOf(n);
    if (col('cik') < 0 || col('name') < 0 || col('ticker') < 0) return refuse('fields must name cik, name and ticker');
    rowList.forEach((r: unknown, i) => {
      if (!Array.isArray(r)) refuse(`data row ${i + 1} is not a list`);
      const row = r as unknown[];
      add(
        row[col('cik')],
        row[col('name')],
        row[col('ticker')],
        col('exchange') < 0 ? null : row[col('exchange')],
        `data row ${i + 1}`,
      );
    });
  } else if (object) {
    // company_tickers.json: {"0": {"cik_str", "ticker", "title"}, …}
    if (rowList !== undefined) refuse('row data is not an object');
    for (const [key, r] of members) {
      if (typeof r !== 'object' || r === null) refuse(`row ${key} is not an object`);
      const row = r as Record<string, unknown>;
      add(row.cik_str, row.title, row.ticker, null, `row ${key}`);
    }
  } else refuse('is neither company_tickers.json nor company_tickers_exchange.json');
  return rows;
}

/**
 * design §10.1: gives catalog companies their CIK and adds the SEC's filers as companies. A CIK
 * the catalog knows keeps its company (listings it lacks are added); a company listed in the
 * catalog under one of the CIK's tickers on a US market gets the CIK; otherwise a company is added
 * with its tickers on the MICs of SEC's exchange names (as the demo maps them), when the file
 * names an exchange. A filer with no listing to place (company_tickers.json names no exchange)
 * is skipped and counted, never added without one. Same file twice: nothing changes.
 */
export async function ingestTickers(
  db: Kysely<Database>,
  path: string,
  limits: IngestLimits = DEFAULT_INGEST_LIMITS,
): Promise<TickersSummary> {
  const rows = await readTickerFile(path, limits);
  return stagedWrite(
    db,
    path,
    async (stage, _rates, conn) => {
      const summary: Omit<TickersSummary, 'renormalized'> = {
        rows: rows.length,
        ciks: 0,
        companies_matched: 0,
        ciks_set: 0,
        companies_added: 0,
        listings_added: 0,
        skipped: { no_listing: 0, listing_taken: 0, bad_ticker: 0 },
      };
      const byCik = new Map(
        (await conn.selectFrom('companies').select(['company_id', 'cik']).where('cik', 'is not', null).execute()).map((c) => [
          c.cik as string,
          c.company_id,
        ]),
      );
      const listings = new Map(
        (
          await conn
            .selectFrom('listings')
            .select(['company_id', 'ticker', 'mic_code'])
            .where('mic_code', 'in', US_MICS)
            .execute()
        ).map((l) => [`${l.mic_code}:${l.ticker}`, l.company_id]),
      );
      // A company added from its filings alone (design §19.1) has none: its first listing here is its primary.
      const listed = new Set(
        (await conn.selectFrom('listings').select('company_id').distinct().execute()).map((l) => l.company_id),
      );
      const groups = new Map<string, TickerRow[]>();
      for (const r of rows) groups.set(r.cik, [...(groups.get(r.cik) ?? []), r]);
      summary.ciks = groups.size;
      const companies = new StageWriter(stage, 'stage_companies');
      const further = new StageWriter(stage, 'stage_listings');
      const taken = new Set<string>();
      let line = 0;
      for (const [cik, group] of groups) {
        const placed: Array<{ ticker: string; mic: string }> = [];
        for (const r of group) {
          if (r.ticker === '' || r.ticker.length > TICKER_MAX_LENGTH || /\s/.test(r.ticker)) {
            summary.skipped.bad_ticker++;
            continue;
          }
          const mic = r.exchange === null ? undefined : SEC_EXCHANGE_MIC[r.exchange];
          if (mic !== undefined) placed.push({ ticker: r.ticker, mic });
        }
        let companyId = byCik.get(cik);
        if (companyId === undefined) {
          // A catalog company already listed under one of the CIK's tickers.
          const owners = new Set(
            group.flatMap((r) => US_MICS.map((m) => listings.get(`${m}:${r.ticker}`)).filter((c) => c !== undefined)),
          );
          const owner = owners.size === 1 ? [...owners][0] : undefined;
          const company =
            owner === undefined
              ? undefined
              : await conn
                  .selectFrom('companies as c')
                  .innerJoin('listings as l', 'l.company_id', 'c.company_id')
                  .select(['c.company_id', 'c.name', 'c.country', 'c.lei', 'c.cik', 'l.ticker', 'l.mic_code', 'l.isin'])
                  .where('c.company_id', '=', owner)
                  .where('l.is_primary', '=', 1)
                  .executeTakeFirst();
          if (company !== undefined && company.cik === null) {
            await companies.add([
              company.company_id,
              company.name,
              company.country,
              company.lei,
              company.ticker,
              company.mic_code,
              company.isin,
              cik,
              null,
              ++line,
            ]);
            companyId = company.company_id;
            summary.ciks_set++;
          }
        }
        if (companyId !== undefined) summary.companies_matched++;
        const free = placed.filter((p) => {
          const key = `${p.mic}:${p.ticker}`;
          const holder = listings.get(key);
          if ((holder !== undefined && holder !== companyId) || taken.has(key)) {
            summary.skipped.listing_taken++;
            return false;
          }
          return holder === undefined;
        });
        if (companyId !== undefined && !listed.has(companyId) && free[0] !== undefined) {
          const primary = free[0];
          const company = await conn
            .selectFrom('companies')
            .select(['name', 'country', 'lei'])
            .where('company_id', '=', companyId)
            .executeTakeFirstOrThrow();
          await companies.add([
            companyId,
            company.name,
            company.country,
            company.lei,
            primary.ticker,
            primary.mic,
            null,
            cik,
            null,
            ++line,
          ]);
          taken.add(`${primary.mic}:${primary.ticker}`);
          listed.add(companyId);
          summary.listings_added++;
          free.splice(0, 1);
        }
        if (companyId === undefined) {
          const [primary, ...rest] = free;
          if (primary === undefined) {
            summary.skipped.no_listing++;
            continue;
          }
          companyId = secCompanyId(cik);
          const name = (group[0]?.name ?? '').slice(0, 300) || `CIK ${cik}`;
          await companies.add([companyId, name, null, null, primary.ticker, primary.mic, null, cik, null, ++line]);
          taken.add(`${primary.mic}:${primary.ticker}`);
          summary.companies_added++;
          free.splice(0, free.length, ...rest);
        }
        for (const p of free) {
          taken.add(`${p.mic}:${p.ticker}`);
          await further.add([companyId, p.ticker, p.mic, null, ++line]);
          summary.listings_added++;
        }
      }
      await companies.flush();
      await further.flush();
      return { issues: [], result: summary };
    },
    { rerun: 'ingest it again' },
  );
}
