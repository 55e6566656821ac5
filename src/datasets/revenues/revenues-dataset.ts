import { REVENUE_FIRST_ACCESS_CREDITS, REVENUE_NO_DATA_CREDITS, REVENUE_REPEAT_CREDITS } from '../../credits/prices.js';
import { RevenueRecordSchema } from '../../http/schemas.js';
import { mockRevenues } from '../../mock/mock-data.js';
import { loadCompanyRevenues, type RevenueRecord } from '../../revenues/revenue-data.js';
import { ProvenanceSchema, provenanceOf } from '../../trace/provenance.js';
import { tracePage } from '../../trace/trace-page.js';
import { loadTraceFacts, loadTraceValues } from '../../trace/trace-query.js';
import type { Dataset } from '../dataset.js';

/** Total revenue in USD (the spec's dataset): `GET /api/v1/revenues`. */
export const revenues: Dataset<RevenueRecord> = {
  name: 'revenues',
  label: 'Revenues',
  subscription: 'revenues',
  route: {
    path: '/api/v1/revenues',
    operationId: 'getRevenues',
    periodsOperationId: 'getRevenuePeriods',
    summary: 'Total revenue of one company for one reporting period, in USD',
    description:
      'Identifier precedence: company_id > isin > lei > ticker (+ mic_code). Lower identifiers given beside a higher one are validated, then ignored. ' +
      'Costs 25 credits for the first access to a company-period, 1 for a repeat, 1 for a 204; errors are free.',
    tag: 'revenues',
    tagDescription: 'Revenue data points',
    ok: 'Every revenue data point of the company-period (first reported and restated).',
    noData: 'The company and period exist but no revenue figure was published for it.',
    forbidden: 'The account has no subscription to the revenues dataset.',
  },
  recordSchema: RevenueRecordSchema,
  provenanceSchema: ProvenanceSchema,
  prices: { firstAccess: REVENUE_FIRST_ACCESS_CREDITS, repeat: REVENUE_REPEAT_CREDITS, noData: REVENUE_NO_DATA_CREDITS },
  load: loadCompanyRevenues,
  mock: mockRevenues,
  example: { file: 'revenues.csv', documentKind: 'financial', row: { value: '1234567000', currency: 'USD' } },
  async trace(db, id) {
    const facts = await loadTraceFacts(db, id);
    if (facts === undefined) return undefined;
    return {
      subject: { companyId: facts.companyId, period: facts.period },
      served: facts.document.status === 'processed',
      async page(access, publicUrl) {
        if (access !== 'bought') return tracePage(facts, { kind: access }, publicUrl);
        return tracePage(facts, { kind: 'bought', values: await loadTraceValues(db, facts.companyId, facts.period) }, publicUrl);
      },
      async provenance(access, publicUrl) {
        const values =
          access === 'bought' ? (await loadTraceValues(db, facts.companyId, facts.period)).get(facts.pointId) : undefined;
        return provenanceOf(facts, values, publicUrl);
      },
    };
  },
};
