import { sql } from 'kysely';
import type { StageDb } from './stage.js';

/**
 * Applies a checked stage: upserts keyed by the bundle's stable ids, so the same bundle twice
 * changes nothing. A company's primary listing is the one in companies.csv; its earlier primary,
 * if different, stays on as a further listing. `added_seq` continues after the highest one, the
 * bundle's order kept: primaries first, then further listings. Figures are each dataset's own
 * stage (`DatasetBundle.apply`), applied after these in the same transaction.
 */
export async function applyStage(db: StageDb): Promise<void> {
  const statements = [
    sql`insert into fx_rates (currency, year, usd_per_unit, source)
        select currency, year, usd_per_unit, source from stage_fx where true
        on conflict (currency, year) do update set usd_per_unit = excluded.usd_per_unit, source = excluded.source`,
    // A bundle without a cik column (written before filings were ingested) keeps the CIK known.
    sql`insert into companies (company_id, name, country, lei, cik)
        select company_id, name, country, lei, cik from stage_companies where true
        on conflict (company_id) do update set name = excluded.name, country = excluded.country, lei = excluded.lei,
          cik = coalesce(excluded.cik, companies.cik)`,
    // The CIKs a company also files under (design §19.4); a company restaged without any keeps its own.
    sql`insert into company_identifiers (kind, value, company_id)
        select 'cik', cik, company_id from stage_company_ciks where true
        on conflict (kind, value) do update set company_id = excluded.company_id`,
    // A company a filings ingest adds from a filer's identity has no listing (design §19.1): none to place.
    sql`update listings set is_primary = 0 where company_id in (select company_id from stage_companies where ticker is not null)`,
    sql`insert into listings (company_id, ticker, mic_code, isin, is_primary, added_seq)
        select company_id, ticker, mic_code, isin, 1, (select coalesce(max(added_seq), 0) from listings) + line from stage_companies where ticker is not null
        on conflict (mic_code, ticker) do update set company_id = excluded.company_id, isin = excluded.isin, is_primary = 1`,
    sql`insert into listings (company_id, ticker, mic_code, isin, is_primary, added_seq)
        select company_id, ticker, mic_code, isin, 0, (select coalesce(max(added_seq), 0) from listings) + 1000000000 + line from stage_listings where true
        on conflict (mic_code, ticker) do update set company_id = excluded.company_id, isin = excluded.isin`,
    // A new document's source is the one its row names (an export's, a filings ingest's), else SEC
    // when it names an accession, else the bundle (design §15). A known document keeps the source it
    // has, unless that is the bundle: then the row's (the checks refused a row naming another
    // source for any other known document).
    sql`insert into documents (document_id, company_id, title, source_url, published_on, reporting_period, status, form, accession, kind, main_document_url,
          source, source_key)
        select document_id, company_id, title, source_url, published_on, reporting_period, status, form, accession, kind, main_document_url,
          coalesce(source, case when accession is not null then 'sec' else 'bundle' end), coalesce(source_key, accession, document_id)
        from stage_documents where true
        on conflict (document_id) do update set company_id = excluded.company_id, title = excluded.title,
          source_url = excluded.source_url, published_on = excluded.published_on,
          reporting_period = excluded.reporting_period, status = excluded.status, kind = excluded.kind,
          form = coalesce(excluded.form, documents.form), accession = coalesce(excluded.accession, documents.accession),
          main_document_url = coalesce(excluded.main_document_url, documents.main_document_url),
          source = case when documents.source = 'bundle' then excluded.source else documents.source end,
          source_key = case when documents.source = 'bundle' then excluded.source_key else documents.source_key end`,
  ];
  for (const s of statements) await s.execute(db);
}
