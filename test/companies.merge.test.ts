import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { corpdata, ingestCli } from './support/cli.js';
import { dialects } from './support/dialects.js';
import { BETA, GAMMA, QUIET } from './support/fixture.js';
import { startApp, TEST_SECRET, type TestApp } from './support/test-app.js';
import { createTestDatabase } from './support/test-database.js';

interface Revenue {
  company_id: string;
  reporting_period: number;
  value: number;
}

/**
 * `companies merge` and `companies show` (design §19.4): a company merged into another moves
 * there whole, in one transaction; its id, ticker and LEI keep finding it, what was bought under
 * it stays bought, and a `company.merged` event tells of it. Beta Corporation (figures 2022–2024)
 * goes into Quiet Shell Company (a listing, no figures, no LEI, no country).
 */
describe.each(dialects())('companies merge (%s)', (dialect) => {
  let t: TestApp;
  let key: string;
  let accountId: string;
  const env = () => ({ CORPDATA_DATABASE: t.database.url, CORPDATA_SECRET: TEST_SECRET });
  const revenue = async (query: string) => {
    const res = await t.get(`/api/v1/revenues?${query}`, key);
    expect(res.status, res.text).toBe(200);
    return { cost: res.cost, record: res.json<Revenue[]>()[0] as Revenue };
  };
  const companyCount = async () =>
    Number(
      (
        await t.db.kysely
          .selectFrom('companies')
          .select((e) => e.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    t = await startApp(dialect);
    ({ key, accountId } = await t.account({ credits: 1000 }));
  });
  afterAll(() => t.close());
  afterEach(() => t.expectLedgersBalance());

  it('refuses a malformed or unknown company, or one merged into itself, on stderr, changing nothing', async () => {
    const before = await companyCount();
    const cases: [string[], RegExp][] = [
      [['nope', QUIET.id], /FROM "nope" is not a company_id/],
      [[BETA.id, '99999999-9999-4999-8999-999999999999'], /INTO 99999999-9999-4999-8999-999999999999: no such company/],
      [[BETA.id, BETA.id.toUpperCase()], /the same company/],
    ];
    for (const [args, message] of cases) {
      const r = await corpdata(['companies', 'merge', ...args], env());
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe('');
    }
    expect(await companyCount()).toBe(before);
  });

  it('moves a company into another: its id, ticker and LEI find it there, its purchases stay bought, an event tells of it', async () => {
    // A webhook watching Beta (and Gamma); past every event, so that nothing is delivered to it here.
    await t.db.kysely
      .insertInto('webhook_endpoints')
      .values({
        endpoint_id: 'ep-watch',
        account_id: accountId,
        url: 'https://receiver.example/hook',
        event_types: 'company.merged',
        company_ids: `${GAMMA.id},${BETA.id}`,
        datasets: 'revenues',
        secret: 'unused',
        status: 'active',
        last_event_id: 1_000_000_000,
        created_at: new Date().toISOString(),
        deleted_at: null,
      })
      .execute();
    const bought = await revenue(`ticker=BETA&reporting_period=2024`);
    expect([bought.cost, bought.record.company_id]).toEqual([25, BETA.id]);
    const before = await companyCount();

    const r = await corpdata(['companies', 'merge', BETA.id, QUIET.id], env());
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary).toMatchObject({ merged: BETA.id, into: QUIET.id, listings: 1, purchases: 1, identifiers: 1 });
    expect(summary.figures).toBeGreaterThanOrEqual(4);
    expect(await companyCount()).toBe(before - 1);
    const watch = await t.db.kysely
      .selectFrom('webhook_endpoints')
      .select('company_ids')
      .where('endpoint_id', '=', 'ep-watch')
      .executeTakeFirst();
    expect(watch?.company_ids).toBe(`${GAMMA.id},${QUIET.id}`);

    // The servers pick up the new catalog after the data version moved (polled by search, which buys nothing).
    const searched = async () => {
      const res = await t.get('/api/v1/companies/search?query=BETA', key);
      return res.json<{ company_id: string }[]>()[0]?.company_id;
    };
    await expect.poll(searched).toBe(QUIET.id);
    const again = await revenue(`company_id=${BETA.id}&reporting_period=2024`);
    expect([again.cost, again.record.value]).toEqual([1, bought.record.value]);
    expect((await revenue(`ticker=BETA&mic_code=XNYS&reporting_period=2024`)).record.company_id).toBe(QUIET.id);
    expect((await revenue(`lei=${BETA.lei}&reporting_period=2024`)).record.company_id).toBe(QUIET.id);
    // A period not bought before costs a first access, under either id.
    expect((await revenue(`company_id=${QUIET.id}&reporting_period=2023`)).cost).toBe(25);
    // The primary listing stays the one INTO had.
    const list = await t.get('/api/v1/companies/search?query=quiet', key);
    expect(list.json<{ company_id: string; ticker: string }[]>()[0]).toMatchObject({ company_id: QUIET.id, ticker: 'QUIET' });

    const shown = await corpdata(['companies', 'show', BETA.id], env());
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({
      company_id: QUIET.id,
      name: 'Quiet Shell Company',
      country: 'United States',
      lei: BETA.lei,
      former_ids: [BETA.id],
      listings: [
        { ticker: 'QUIET', mic_code: 'XNGS', is_primary: true },
        { ticker: 'BETA', mic_code: 'XNYS', isin: BETA.isin, is_primary: false },
      ],
    });

    for (const query of ['type=company.merged', `company_id=${BETA.id}&type=company.merged`]) {
      const res = await t.get(`/api/v1/events?${query}`, key);
      expect([res.status, res.cost]).toEqual([200, 0]);
      expect(res.json<{ events: unknown[] }>().events).toEqual([
        expect.objectContaining({
          id: summary.event_id,
          type: 'company.merged',
          company_id: QUIET.id,
          merged_company_id: BETA.id,
        }),
      ]);
    }

    const twice = await corpdata(['companies', 'merge', BETA.id, QUIET.id], env());
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(`FROM ${BETA.id} was merged into ${QUIET.id} already`);
  });
});

const SNOWFLAKE = fileURLToPath(new URL('./fixtures/filings/sec-companyfacts/CIK0001640147.json', import.meta.url));

/**
 * A successor under a new CIK (design §19.4, as Exxon's holding company carries `XOM`): the old
 * filer, added from its filings without a listing (§19.1), is merged into the listed successor;
 * its figures answer the successor's ticker, its CIK resolves there, and its filings ingested
 * again land there, adding nothing.
 */
describe.each(dialects())('a successor under a new CIK (%s)', (dialect) => {
  let t: TestApp;
  let dir: string;
  let key: string;
  let old: string;
  let successor: string;
  const env = () => ({ CORPDATA_DATABASE: t.database.url, CORPDATA_SECRET: TEST_SECRET });
  const companyOf = async (cik: string) =>
    (await t.db.kysely.selectFrom('companies').select('company_id').where('cik', '=', cik).executeTakeFirstOrThrow()).company_id;

  beforeAll(async () => {
    t = await startApp(dialect, { bundle: null });
    dir = mkdtempSync(join(tmpdir(), 'corpdata-merge-'));
    key = (await t.account({ credits: 1000 })).key;
    // The old filer, added from its filings alone, then the ticker file's successor, merged.
    const added = await ingestCli(t.database.url, 'sec-companyfacts', SNOWFLAKE);
    expect(added.code, added.stderr).toBe(0);
    const tickers = join(dir, 'company_tickers_exchange.json');
    writeFileSync(
      tickers,
      JSON.stringify({
        fields: ['cik', 'name', 'ticker', 'exchange'],
        data: [[9999991, 'Snowflake Holdings Inc.', 'SNOW', 'NYSE']],
      }),
    );
    const listed = await ingestCli(t.database.url, 'sec-tickers', tickers);
    expect(listed.code, listed.stderr).toBe(0);
    [old, successor] = [await companyOf('0001640147'), await companyOf('0009999991')];

    const merged = await corpdata(['companies', 'merge', old, successor], env());
    expect(merged.code, merged.stderr).toBe(0);
    expect(JSON.parse(merged.stdout)).toMatchObject({ merged: old, into: successor, listings: 0, identifiers: 2 });
  }, 60_000);
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t.close();
  });
  afterEach(() => t.expectLedgersBalance());

  it("answers the old filer's figures by the successor's ticker and finds the successor by the old CIK", async () => {
    await expect
      .poll(async () => {
        const res = await t.get('/api/v1/revenues?ticker=SNOW&reporting_period=2025', key);
        return res.status === 200 ? res.json<Revenue[]>().map((r) => [r.company_id, r.value]) : res.status;
      })
      .toEqual([[successor, 3_626_396_000]]);
    const resolved = await t.post('/api/v1/companies/resolve', { jobs: [{ cik: '1640147' }, { company_id: old }] }, key);
    expect(resolved.status, resolved.text).toBe(200);
    expect(resolved.json<{ results: { status: number; data?: { company_id: string } }[] }>().results).toEqual([
      expect.objectContaining({ status: 200, data: expect.objectContaining({ company_id: successor }) }),
      expect.objectContaining({ status: 200, data: expect.objectContaining({ company_id: successor }) }),
    ]);

    const again = await ingestCli(t.database.url, 'sec-companyfacts', SNOWFLAKE);
    expect(again.code, again.stderr).toBe(0);
    expect(again.json()).toMatchObject({ companies_matched: 1, companies_added: 0, documents: 0, data_points: 0 });
    const shown = await corpdata(['companies', 'show', successor], env());
    expect(JSON.parse(shown.stdout)).toMatchObject({ cik: '0009999991', other_ciks: ['0001640147'], former_ids: [old] });
  });

  it("exports the successor's other CIK, so that its predecessor's filings import under it into an empty database", async () => {
    const out = join(dir, 'export');
    const exported = await corpdata(['export', out], { ...env(), CORPDATA_DEMO: 'off' });
    expect(exported.code, exported.stderr).toBe(0);
    const row = readFileSync(join(out, 'companies.csv'), 'utf8')
      .split('\n')
      .find((r) => r.includes('0009999991'));
    expect(row?.split(',').slice(-2)).toEqual(['0009999991', '0001640147']);
    const empty = await createTestDatabase(dialect);
    try {
      const target = { CORPDATA_DATABASE: empty.url, CORPDATA_SECRET: TEST_SECRET, CORPDATA_DEMO: 'off' };
      // Its filings' EDGAR folders name CIK 1640147: the filing-owner check takes the company's other CIK.
      const imported = await corpdata(['import', out], target);
      expect(imported.code, imported.stderr).toBe(0);
      const shown = await corpdata(['companies', 'show', (await companyOf('0009999991')) as string], target);
      expect(JSON.parse(shown.stdout)).toMatchObject({ cik: '0009999991', other_ciks: ['0001640147'] });
      expect(JSON.parse(shown.stdout).documents).toBeGreaterThan(0);
    } finally {
      await empty.drop();
    }
  });

  it("refuses a malformed other_ciks, or one naming the own or another company's CIK, naming file and line", async () => {
    const cases: [string, RegExp][] = [
      ['12x', /companies.csv:2: cik "12x" is not a CIK/],
      ['0009999991', /companies.csv:2: other_ciks holds the company's own cik 0009999991/],
      ['1640147 0001640147', /companies.csv:2: other_ciks names a CIK twice/],
    ];
    const successor = await companyOf('0009999991');
    for (const [value, message] of cases) {
      const bundle = join(dir, `bad-${cases.findIndex(([v]) => v === value)}`);
      mkdirSync(bundle);
      writeFileSync(
        join(bundle, 'companies.csv'),
        `company_id,name,country,lei,ticker,mic_code,isin,cik,other_ciks\n${successor},Snowflake Holdings Inc.,,,SNOW,XNYS,,0009999991,${value}\n`,
      );
      const r = await corpdata(['import', bundle], env());
      expect(r.code, value).not.toBe(0);
      expect(r.stderr).toMatch(message);
    }
    const other = join(dir, 'taken');
    mkdirSync(other);
    writeFileSync(
      join(other, 'companies.csv'),
      'company_id,name,country,lei,ticker,mic_code,isin,cik,other_ciks\n40000000-0000-4000-8000-000000000001,Other Inc.,,,OTHR,XNYS,,,0009999991\n',
    );
    const taken = await corpdata(['import', other], env());
    expect(taken.code).not.toBe(0);
    expect(taken.stderr).toMatch('companies.csv:2: other_ciks: cik 0009999991 belongs to another company');
  });
});
