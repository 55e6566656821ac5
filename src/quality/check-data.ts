import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { conceptRank, type FigureSpec } from '../ingest/core/figure-spec.js';
import { parsePairs } from '../ingest/filings/ingest-filings.js';
import { type AuditInput, auditFindings, citedDocuments, type Finding } from './findings.js';
import { STATEMENT_TABLES, type StatementFigure, type StatementFigures } from './statement-checks.js';

/** What the audit reads, and the passed-over counts computed from the same figure rows. */
export interface AuditRead {
  input: AuditInput;
  /** Per figure spec with a guard (by spec name, in the order of `specs`): see {@link passedOverCount}. */
  passedOver: Record<string, number>;
}

/**
 * Reads what the audit checks from the database: the catalog, processed documents and every
 * figure, those of the figure `specs` other than revenues' included; each figure table once, its
 * concepts and candidates with it for the guarded specs' passed-over counts.
 */
export async function readAuditInput(db: Kysely<Database>, specs: readonly FigureSpec[] = []): Promise<AuditRead> {
  const [companies, documents, revenues, emissions] = await Promise.all([
    db.selectFrom('companies').select(['company_id', 'name', 'country']).execute(),
    db
      .selectFrom('documents')
      .select(['document_id', 'company_id', 'published_on', 'reporting_period'])
      .where('status', '=', 'processed')
      .execute(),
    db
      .selectFrom('revenue_points')
      .select(['company_id', 'document_id', 'reporting_period', 'original_value', 'value_usd', 'concept', 'candidates'])
      .execute(),
    db.selectFrom('ghg_points').select(['company_id', 'document_id', 'reporting_period', 'scope', 'value']).execute(),
  ]);
  const filed = [];
  const counts: Record<string, number> = {};
  const statements: { -readonly [K in keyof StatementFigures]: StatementFigure[] } = { revenue: revenues.map(statementFigure) };
  for (const spec of specs) {
    if (spec.table === 'revenue_points') {
      if (spec.guard !== undefined) counts[spec.name] = passedOverCount(spec, revenues);
      continue;
    }
    const rows = await db
      .selectFrom(spec.table)
      .select([
        'company_id',
        'document_id',
        'reporting_period',
        'original_value',
        'value_usd',
        'confirmed_by',
        'concept',
        'candidates',
      ])
      .execute();
    if (spec.guard !== undefined) counts[spec.name] = passedOverCount(spec, rows);
    const line = (STATEMENT_TABLES as Partial<Record<string, keyof StatementFigures>>)[spec.table];
    if (line !== undefined) statements[line] = rows.map(statementFigure);
    filed.push({
      metric: spec.metric,
      figures: rows.flatMap((r) =>
        citedDocuments(r.document_id, r.confirmed_by).map((documentId) => ({
          companyId: r.company_id,
          documentId,
          period: Number(r.reporting_period),
        })),
      ),
    });
  }
  const input: AuditInput = {
    filed,
    statements,
    companies: companies.map((c) => ({ id: c.company_id, name: c.name, country: c.country })),
    documents: documents.map((d) => ({
      id: d.document_id,
      companyId: d.company_id,
      publishedOn: d.published_on,
      reportingPeriod: Number(d.reporting_period),
    })),
    revenues: revenues.map((r) => ({
      companyId: r.company_id,
      documentId: r.document_id,
      period: r.reporting_period,
      valueUsd: Number(r.value_usd),
      concept: r.concept,
    })),
    emissions: emissions.map((e) => ({
      companyId: e.company_id,
      documentId: e.document_id,
      period: e.reporting_period,
      scope: e.scope,
      value: Number(e.value),
    })),
  };
  return { input, passedOver: counts };
}

/** A figure row as the statements' cross-checks read it (design §18.5); a row without an original value is its USD value. */
function statementFigure(r: {
  company_id: string;
  document_id: string;
  reporting_period: number;
  original_value: number | null;
  value_usd: number;
  candidates: string | null;
}): StatementFigure {
  return {
    companyId: r.company_id,
    documentId: r.document_id,
    period: Number(r.reporting_period),
    value: Number(r.original_value ?? r.value_usd),
    valueUsd: Number(r.value_usd),
    candidates: r.candidates,
  };
}

/**
 * The findings of the data-quality audit over everything the database holds (design §6), and
 * the guarded specs' passed-over counts.
 */
export async function checkData(
  db: Kysely<Database>,
  specs: readonly FigureSpec[] = [],
): Promise<{ findings: Finding[]; passedOver: Record<string, number> }> {
  const { input, passedOver } = await readAuditInput(db, specs);
  return { findings: auditFindings(input), passedOver };
}

/**
 * How many candidates the statements' arithmetic passed over (design §18.4) among one guarded
 * spec's figures: each a concept stored among a figure's candidates that comes before the figure's
 * own concept in the spec's order, which only the guard lets happen. Not findings: the figures are
 * right; the count says how often the filings' own arithmetic decided.
 */
function passedOverCount(
  spec: FigureSpec,
  figures: ReadonlyArray<{ concept: string | null; candidates: string | null }>,
): number {
  const rank = conceptRank(spec);
  let n = 0;
  for (const f of figures) {
    const own = rank(f.concept ?? '') ?? Number.POSITIVE_INFINITY;
    for (const { key } of parsePairs(f.candidates)) if ((rank(key) ?? Number.POSITIVE_INFINITY) < own) n++;
  }
  return n;
}
