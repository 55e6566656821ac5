import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { DatasetBundle } from '../../ingest/core/dataset-bundle.js';
import { type Checked, Messages, uuid, year } from '../../ingest/core/field-checks.js';
import type { ImportIssue } from '../../ingest/core/issues.js';
import { stableId } from '../../ingest/core/stable-id.js';
import { GHG_SCOPES } from './ghg-record.js';
import { toTonnes } from './units.js';

const FILE = 'ghg_emissions.csv';

/** An emission point's id: stable across imports and exports, one per document, period and scope. */
export function ghgPointId(documentId: string, period: number, scope: string): string {
  return stableId(`ghg-point:${documentId}:${period}:${scope}`);
}

function stageRow(v: Readonly<Record<string, string>>): Checked<unknown[]> {
  const m = new Messages();
  const companyId = uuid(m, 'company_id', v.company_id ?? '');
  const documentId = uuid(m, 'document_id', v.document_id ?? '');
  const period = year(m, 'reporting_period', v.reporting_period ?? '');
  const scope = v.scope ?? '';
  const unit = v.unit ?? '';
  if (!(GHG_SCOPES as readonly string[]).includes(scope)) m.add(`scope "${scope}" is not one of ${GHG_SCOPES.join(', ')}`);
  let tonnes = 0;
  try {
    tonnes = toTonnes(v.value ?? '', unit);
  } catch (error) {
    m.add((error as Error).message);
  }
  const page = (v.page ?? '').trim();
  if (page.length > 100) m.add('page is longer than 100 characters');
  if (m.list.length > 0) return { ok: false, messages: m.list };
  return {
    ok: true,
    row: [
      ghgPointId(documentId, period, scope),
      companyId,
      documentId,
      period,
      scope,
      tonnes,
      v.value,
      unit,
      page === '' ? null : page,
    ],
  };
}

interface Finding {
  line: number | string;
  document_id: string;
  company_id: string;
  reporting_period: number | string;
  scope: string;
  owner: string | null;
  document_period: number | string | null;
  earlier: number | string | null;
}

/** Every figure's document known and the company's, its period not after the document's, no figure given twice. */
async function check(db: Kysely<Database>): Promise<ImportIssue[]> {
  const owner = sql`coalesce(t.company_id, d.company_id)`;
  const documentPeriod = sql`coalesce(t.reporting_period, d.reporting_period)`;
  const earlier = sql`(select min(e.line) from stage_ghg e where e.point_id = s.point_id and e.line < s.line)`;
  const { rows } = await sql<Finding>`
    select s.line, s.document_id, s.company_id, s.reporting_period, s.scope, ${owner} as owner,
      ${documentPeriod} as document_period, ${earlier} as earlier
    from stage_ghg s
    left join stage_documents t on t.document_id = s.document_id
    left join documents d on d.document_id = s.document_id
    where ${owner} is null or ${owner} <> s.company_id or ${documentPeriod} < s.reporting_period or ${earlier} is not null`.execute(
    db,
  );
  return rows.map((r): ImportIssue => {
    const at = { file: FILE, line: Number(r.line) };
    if (r.owner === null) return { ...at, message: `document_id ${r.document_id} is not in documents.csv nor in the database` };
    if (r.owner !== r.company_id) {
      return { ...at, message: `document ${r.document_id} belongs to company ${r.owner}, not ${r.company_id}` };
    }
    if (r.earlier !== null) {
      return {
        ...at,
        message: `duplicate figure: scope ${r.scope} of ${r.reporting_period} in document ${r.document_id} is on line ${r.earlier} too`,
      };
    }
    return {
      ...at,
      message: `reporting_period ${r.reporting_period} is after ${r.document_period}, the period its document reports on`,
    };
  });
}

/** `ghg_emissions.csv` (design §13.5): figures in t, kt or Mt CO2e, stored as whole tonnes. */
export const ghgBundle: DatasetBundle = {
  file: FILE,
  columns: ['company_id', 'document_id', 'reporting_period', 'scope', 'value', 'unit'],
  optionalColumns: ['page'],
  stageTable: 'stage_ghg',
  stageColumns: [
    'point_id',
    'company_id',
    'document_id',
    'reporting_period',
    'scope',
    'value',
    'source_value',
    'source_unit',
    'page',
    'line',
  ],
  async createStage(db) {
    await sql`drop table if exists stage_ghg`.execute(db);
    await sql`create temporary table stage_ghg (point_id text, company_id text, document_id text, reporting_period integer,
      scope text, value bigint, source_value text, source_unit text, page text, line integer)`.execute(db);
  },
  stageRow,
  async check(db) {
    await sql`create index stage_ghg_key on stage_ghg (point_id, line)`.execute(db);
    return check(db);
  },
  async apply(db) {
    await sql`insert into ghg_points (point_id, company_id, document_id, reporting_period, scope, value, source_value, source_unit, page)
      select point_id, company_id, document_id, reporting_period, scope, value, source_value, source_unit, page from stage_ghg where true
      on conflict (point_id) do update set company_id = excluded.company_id, value = excluded.value,
        source_value = excluded.source_value, source_unit = excluded.source_unit, page = excluded.page`.execute(db);
  },
  async *exportRows(db: Kysely<Database>) {
    let after = '';
    for (;;) {
      const rows = await db
        .selectFrom('ghg_points')
        .select(['point_id', 'company_id', 'document_id', 'reporting_period', 'scope', 'source_value', 'source_unit', 'page'])
        .where('point_id', '>', after)
        .orderBy('point_id')
        .limit(5000)
        .execute();
      for (const r of rows)
        yield [r.company_id, r.document_id, r.reporting_period, r.scope, r.source_value, r.source_unit, r.page];
      const last = rows[rows.length - 1];
      if (last === undefined || rows.length < 5000) return;
      after = last.point_id;
    }
  },
};
