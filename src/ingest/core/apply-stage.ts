import { sql } from 'kysely';
import { USD_RATE } from './rates.js';
import type { StageDb } from './stage.js';

/**
 * Applies a checked stage: upserts keyed by the bundle's stable ids, so the same bundle twice
 * changes nothing. A company's primary listing is the one in companies.csv; its earlier primary,
 * if different, stays on as a further listing. `added_seq` continues after the highest one, the
 * bundle's order kept: primaries first, then further listings.
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
    sql`update listings set is_primary = 0 where company_id in (select company_id from stage_companies)`,
    sql`insert into listings (company_id, ticker, mic_code, isin, is_primary, added_seq)
        select company_id, ticker, mic_code, isin, 1, (select coalesce(max(added_seq), 0) from listings) + line from stage_companies where true
        on conflict (mic_code, ticker) do update set company_id = excluded.company_id, isin = excluded.isin, is_primary = 1`,
    sql`insert into listings (company_id, ticker, mic_code, isin, is_primary, added_seq)
        select company_id, ticker, mic_code, isin, 0, (select coalesce(max(added_seq), 0) from listings) + 1000000000 + line from stage_listings where true
        on conflict (mic_code, ticker) do update set company_id = excluded.company_id, isin = excluded.isin`,
    // A new document's source is SEC when it names an accession, else the bundle (DESIGN §15); a
    // filings ingest then sets its own source and key. A known document keeps the source it has.
    sql`insert into documents (document_id, company_id, title, source_url, published_on, reporting_period, status, form, accession, kind, main_document_url,
          source, source_key)
        select document_id, company_id, title, source_url, published_on, reporting_period, status, form, accession, kind, main_document_url,
          case when accession is not null then 'sec' else 'bundle' end, coalesce(accession, document_id) from stage_documents where true
        on conflict (document_id) do update set company_id = excluded.company_id, title = excluded.title,
          source_url = excluded.source_url, published_on = excluded.published_on,
          reporting_period = excluded.reporting_period, status = excluded.status, kind = excluded.kind,
          form = coalesce(excluded.form, documents.form), accession = coalesce(excluded.accession, documents.accession),
          main_document_url = coalesce(excluded.main_document_url, documents.main_document_url),
          source = case when documents.source = 'bundle' and excluded.accession is not null then 'sec' else documents.source end,
          source_key = case when documents.source = 'bundle' and excluded.accession is not null then excluded.accession else documents.source_key end`,
    // A figure's rate is its currency-year's; a USD figure's is USD_RATE (no stage_rates row).
    sql`insert into revenue_points (point_id, company_id, document_id, reporting_period, original_value, original_ccy, value_usd, fx_rate, fx_source,
          concept, period_start, period_end, candidates, confirmed_by, source_detail)
        select s.point_id, s.company_id, s.document_id, s.reporting_period, s.original_value, s.original_ccy, s.value_usd,
          coalesce(r.usd_per_unit, ${USD_RATE.usdPerUnit}), coalesce(r.source, ${USD_RATE.source}), s.concept, s.period_start, s.period_end,
          s.candidates, s.confirmed_by, s.source_detail
        from stage_revenues s left join stage_rates r on r.currency = s.rate_currency and r.year = s.reporting_period where true
        on conflict (point_id) do update set company_id = excluded.company_id, original_value = excluded.original_value,
          original_ccy = excluded.original_ccy, value_usd = excluded.value_usd, fx_rate = excluded.fx_rate, fx_source = excluded.fx_source,
          concept = coalesce(excluded.concept, revenue_points.concept), period_start = coalesce(excluded.period_start, revenue_points.period_start),
          period_end = coalesce(excluded.period_end, revenue_points.period_end),
          candidates = coalesce(excluded.candidates, revenue_points.candidates),
          confirmed_by = coalesce(excluded.confirmed_by, revenue_points.confirmed_by),
          source_detail = coalesce(excluded.source_detail, revenue_points.source_detail)`,
  ];
  for (const s of statements) await s.execute(db);
}
