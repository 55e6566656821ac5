import { type Kysely, sql } from 'kysely';
import { pointTables } from '../../db/point-tables.js';
import type { Database } from '../../db/schema.js';

/**
 * `filing.ingested` for each staged document that becomes processed by this write (new, or known
 * but not processed before). Run in the write's transaction before the stage is applied.
 */
export async function writeFilingEvents(trx: Kysely<Database>, at: string): Promise<void> {
  await sql`insert into events (type, occurred_at, company_id, reporting_period, document_id)
    select 'filing.ingested', ${at}, s.company_id, s.reporting_period, s.document_id
    from stage_documents s left join documents d on d.document_id = s.document_id
    where s.status = 'processed' and (d.document_id is null or d.status <> 'processed')
    order by s.line`.execute(trx);
}

/**
 * Marks the staged documents this write made processed as served now (design §20.2): the end of
 * their lag. A document served before keeps its time. Run in the write's transaction after the
 * stage is applied.
 */
export async function markServed(trx: Kysely<Database>, at: string): Promise<void> {
  await sql`update documents set served_at = ${at}
    where served_at is null and status = 'processed' and document_id in (select document_id from stage_documents)`.execute(trx);
}

/**
 * The figure events of a write (design §20.3), found by comparing every table of points with what
 * the events have told of it so far (`event_marks`). Only served points count (their document is
 * processed): a pending report's figures are told when it is processed. A point that is new or whose value changed is
 * `figure.published` when its company-period had no point of the table before (one event for the
 * company-period, naming its first new point), else `figure.restated` when the company-period held
 * no point of that value before (one event a point). A point repeating a value already told (a
 * later report confirming a figure) makes none. The marks then take the new values, so the same
 * input twice makes no second event. Run in the write's transaction, after the figures are
 * applied and before FX rates move USD values (which are no new figure).
 */
export async function writeFigureEvents(trx: Kysely<Database>, at: string): Promise<void> {
  for (const t of await pointTables(trx)) {
    await sql`drop table if exists event_changed`.execute(trx);
    await sql`create temporary table event_changed (point_id text, company_id text, reporting_period integer,
      document_id text, fp text, period_known integer, value_known integer)`.execute(trx);
    await sql`insert into event_changed (point_id, company_id, reporting_period, document_id, fp, period_known, value_known)
      select p.point_id, p.company_id, p.reporting_period, p.document_id, p.fp,
        case when exists (select 1 from event_marks k where k.points_table = ${t.name}
          and k.company_id = p.company_id and k.reporting_period = p.reporting_period) then 1 else 0 end as period_known,
        case when exists (select 1 from event_marks k where k.points_table = ${t.name}
          and k.company_id = p.company_id and k.reporting_period = p.reporting_period and k.fingerprint = p.fp) then 1 else 0 end as value_known
      from (select point_id, company_id, reporting_period, document_id, ${t.fingerprint} as fp from ${sql.table(t.name)}
        where document_id in (select document_id from documents where status = 'processed')) p
      left join event_marks m on m.points_table = ${t.name} and m.point_id = p.point_id
      where m.point_id is null or m.fingerprint <> p.fp`.execute(trx);
    await sql`create index event_changed_period on event_changed (company_id, reporting_period, point_id)`.execute(trx);
    await sql`insert into events (type, occurred_at, company_id, points_table, reporting_period, document_id, point_id)
      select 'figure.published', ${at}, c.company_id, ${t.name}, c.reporting_period, c.document_id, c.point_id
      from event_changed c
      where c.period_known = 0 and c.point_id = (select min(x.point_id) from event_changed x
        where x.company_id = c.company_id and x.reporting_period = c.reporting_period)
      order by c.company_id, c.reporting_period`.execute(trx);
    await sql`insert into events (type, occurred_at, company_id, points_table, reporting_period, document_id, point_id)
      select 'figure.restated', ${at}, company_id, ${t.name}, reporting_period, document_id, point_id
      from event_changed where period_known = 1 and value_known = 0
      order by company_id, reporting_period, point_id`.execute(trx);
    await sql`insert into event_marks (points_table, point_id, company_id, reporting_period, fingerprint)
      select ${t.name}, point_id, company_id, reporting_period, fp from event_changed where true
      on conflict (points_table, point_id) do update set company_id = excluded.company_id,
        reporting_period = excluded.reporting_period, fingerprint = excluded.fingerprint`.execute(trx);
    await sql`drop table event_changed`.execute(trx);
  }
}
