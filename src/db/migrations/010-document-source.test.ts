import { describe, expect, it } from 'vitest';
import { dialects } from '../../../test/support/dialects.js';
import { freshDatabase } from '../../../test/support/test-database.js';
import * as initial from './001-initial.js';
import * as secFilings from './002-sec-filings.js';
import * as documentSource from './010-document-source.js';

describe.each(dialects())('migration 010-document-source on a database in use (%s)', (dialect) => {
  const t = freshDatabase(dialect);

  it('identifies an SEC filing by its accession number, any other document by its id, one document per source key', async () => {
    const k = t.db.kysely;
    await initial.up(k as never, dialect);
    await secFilings.up(k as never, dialect);
    await k.insertInto('companies').values({ company_id: 'c1', name: 'One', country: null, lei: null }).execute();
    const document = (id: string, accession: string | null) => ({
      document_id: id,
      company_id: 'c1',
      title: id,
      source_url: 'https://example.com',
      published_on: '2024-01-01',
      reporting_period: 2023,
      status: 'processed' as const,
      form: accession === null ? null : '10-K',
      accession,
    });
    await k
      .insertInto('documents')
      .values([document('filing', '0000789019-24-000001'), document('report', null)])
      .execute();

    await documentSource.up(k as never, dialect);

    const rows = await k.selectFrom('documents').select(['document_id', 'source', 'source_key']).orderBy('document_id').execute();
    expect(rows).toEqual([
      { document_id: 'filing', source: 'sec', source_key: '0000789019-24-000001' },
      { document_id: 'report', source: 'bundle', source_key: 'report' },
    ]);
    await expect(
      k
        .insertInto('documents')
        .values({ ...document('again', null), source: 'sec', source_key: '0000789019-24-000001' } as never)
        .execute(),
    ).rejects.toThrow();
  });
});
