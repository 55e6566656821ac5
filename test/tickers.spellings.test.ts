import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from './support/dialects.js';
import { startApp, type TestAccount, type TestApp } from './support/test-app.js';

const BERKSHIRE = '40000000-0000-4000-8000-000000000001';

/**
 * design §19.5 over HTTP: a class-share ticker answers in every spelling sources use, in resolve,
 * search and the dataset calls, and is answered as the catalog spells it.
 */
describe.each(dialects())('one ticker in every spelling (%s)', (dialect) => {
  let t: TestApp;
  let dir: string;
  let buyer: TestAccount;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'corpdata-tickers-'));
    writeFileSync(
      join(dir, 'companies.csv'),
      [
        'company_id,name,country,lei,ticker,mic_code,isin',
        `${BERKSHIRE},Berkshire Hathaway Inc.,United States,,BRK-B,XNYS,`,
        '40000000-0000-4000-8000-000000000002,Banco de Brasilia S.A.,Brazil,,BSLI3,BVMF,',
        '40000000-0000-4000-8000-000000000003,Brookfield Renewable Corp,Canada,,BRKB,XTSE,',
      ].join('\n'),
    );
    t = await startApp(dialect, { bundle: dir });
    buyer = await t.account({ credits: 1_000 });
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t.close();
  });

  it('resolves BRK.B, BRK-B, BRK/B, BRK B and brk.b to the one listing, answered as stored', async () => {
    const spellings = ['BRK.B', 'BRK-B', 'BRK/B', 'BRK B', 'brk.b'];
    const r = await t.post('/api/v1/companies/resolve', { jobs: spellings.map((ticker) => ({ ticker })) }, buyer.key);
    expect(r.status, r.text).toBe(200);
    const results = r.json<{ results: Array<{ status: number; data?: { company_id: string; ticker: string } }> }>().results;
    expect(results.map((x) => [x.status, x.data?.company_id, x.data?.ticker])).toEqual(
      spellings.map(() => [200, BERKSHIRE, 'BRK-B']),
    );
    // Without a separator it is another ticker.
    const other = await t.post('/api/v1/companies/resolve', { jobs: [{ ticker: 'BRKB' }] }, buyer.key);
    expect(other.json<{ results: Array<{ data?: { company_id: string } }> }>().results[0]?.data?.company_id).not.toBe(BERKSHIRE);
  });

  it('searches BRK.B to Berkshire first, and a dataset call finds it by any spelling', async () => {
    for (const query of ['BRK.B', 'BRK/B', 'brk-b']) {
      const s = await t.get(`/api/v1/companies/search?query=${encodeURIComponent(query)}`, buyer.key);
      expect(s.status).toBe(200);
      expect(s.json<Array<{ company_id: string }>>()[0]?.company_id).toBe(BERKSHIRE);
    }
    // No figures in this catalog: the company is found (its periods are named), not an unknown ticker.
    const periods = await t.get('/api/v1/revenues/periods?ticker=BRK.B', buyer.key);
    const unknown = await t.get('/api/v1/revenues/periods?ticker=BRK.C', buyer.key);
    expect(periods.status).not.toBe(unknown.status);
    expect(unknown.status).toBe(404);
  });
});
