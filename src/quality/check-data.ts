import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import { conceptRank, type FigureSpec } from '../ingest/core/figure-spec.js';
import { type AuditInput, auditFindings, citedDocuments, type Finding } from './findings.js';

/**
 * Reads what the audit checks from the database: the catalog, processed documents and every
 * figure, those of the figure `specs` other than revenues' included.
 */
export async function readAuditInput(db: Kysely<Database>, specs: readonly FigureSpec[] = []): Promise<AuditInput> {
  const [companies, documents, revenues, emissions] = await Promise.all([
    db.selectFrom('companies').select(['company_id', 'name', 'country']).execute(),
    db
      .selectFrom('documents')
      .select(['document_id', 'company_id', 'published_on', 'reporting_period'])
      .where('status', '=', 'processed')
      .execute(),
    db.selectFrom('revenue_points').select(['company_id', 'document_id', 'reporting_period', 'value_usd', 'concept']).execute(),
    db.selectFrom('ghg_points').select(['company_id', 'document_id', 'reporting_period', 'scope', 'value']).execute(),
  ]);
  const filed = [];
  for (const spec of specs) {
    if (spec.table === 'revenue_points') continue;
    const { rows } = await sql<{
      company_id: string;
      document_id: string;
      reporting_period: number;
      confirmed_by: string | null;
    }>`
      select company_id, document_id, reporting_period, confirmed_by from ${sql.table(spec.table)}`.execute(db);
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
  return {
    filed,
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
}

/** The findings of the data-quality audit over everything the database holds (design §6). */
export async function checkData(db: Kysely<Database>, specs: readonly FigureSpec[] = []): Promise<Finding[]> {
  return auditFindings(await readAuditInput(db, specs));
}

/**
 * How many candidates the statements' arithmetic passed over (design §18.4), per figure spec with
 * a guard: each a concept stored among a figure's candidates that comes before the figure's own
 * concept in the spec's order, which only the guard lets happen. Not findings: the figures are
 * right; the count says how often the filings' own arithmetic decided.
 */
export async function passedOverCounts(db: Kysely<Database>, specs: readonly FigureSpec[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const spec of specs) {
    if (spec.guard === undefined) continue;
    const rank = conceptRank(spec);
    const { rows } = await sql<{ concept: string | null; candidates: string | null }>`
      select concept, candidates from ${sql.table(spec.table)} where candidates is not null`.execute(db);
    let n = 0;
    for (const r of rows) {
      const own = rank(r.concept ?? '') ?? Number.POSITIVE_INFINITY;
      for (const pair of (r.candidates ?? '').split(' ')) {
        const concept = pair.slice(0, pair.lastIndexOf('='));
        if ((rank(concept) ?? Number.POSITIVE_INFINITY) < own) n++;
      }
    }
    counts[spec.name] = n;
  }
  return counts;
}
