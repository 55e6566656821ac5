import { describe, expect, it } from 'vitest';
import { dialects } from '../../../test/support/dialects.js';
import { freshDatabase } from '../../../test/support/test-database.js';
import * as initial from './001-initial.js';
import * as secFilings from './002-sec-filings.js';
import * as datasets from './003-datasets.js';
import * as documentKind from './007-document-kind.js';

describe.each(dialects())('migration 007-document-kind on a database in use (%s)', (dialect) => {
  const t = freshDatabase(dialect);

  it('makes a document holding emission figures only a sustainability report, every other one a financial report', async () => {
    const k = t.db.kysely;
    await initial.up(k as never, dialect);
    await secFilings.up(k as never, dialect);
    await datasets.up(k as never, dialect);
    await k.insertInto('companies').values({ company_id: 'c1', name: 'One', country: null, lei: null }).execute();
    const document = (id: string) => ({
      document_id: id,
      company_id: 'c1',
      title: id,
      source_url: 'https://example.com',
      published_on: '2024-01-01',
      reporting_period: 2023,
      status: 'processed' as const,
    });
    await k
      .insertInto('documents')
      .values([document('annual'), document('ghg'), document('both'), document('empty')])
      .execute();
    const point = (id: string, doc: string) => ({
      point_id: id,
      company_id: 'c1',
      document_id: doc,
      reporting_period: 2023,
      original_value: 1,
      original_ccy: 'USD',
      value_usd: 1,
      fx_rate: '1',
      fx_source: 'USD',
    });
    await k
      .insertInto('revenue_points')
      .values([point('r1', 'annual'), point('r2', 'both')])
      .execute();
    const ghg = (id: string, doc: string) => ({
      point_id: id,
      company_id: 'c1',
      document_id: doc,
      reporting_period: 2023,
      scope: '1' as const,
      value: 5,
      source_value: '5',
      source_unit: 't' as const,
      page: null,
    });
    await k
      .insertInto('ghg_points')
      .values([ghg('g1', 'ghg'), ghg('g2', 'both')])
      .execute();

    await documentKind.up(k as never, dialect);

    const kinds = await k.selectFrom('documents').select(['document_id', 'kind']).orderBy('document_id').execute();
    expect(kinds).toEqual([
      { document_id: 'annual', kind: 'financial' },
      { document_id: 'both', kind: 'financial' },
      { document_id: 'empty', kind: 'financial' },
      { document_id: 'ghg', kind: 'sustainability' },
    ]);
    const added = await k.selectFrom('revenue_points').select(['candidates', 'confirmed_by']).execute();
    expect(added).toEqual([
      { candidates: null, confirmed_by: null },
      { candidates: null, confirmed_by: null },
    ]);
    await expect(
      k
        .updateTable('documents')
        .set({ kind: 'other' as never })
        .where('document_id', '=', 'annual')
        .execute(),
    ).rejects.toThrow();
  });
});
