import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURRENCIES } from '../src/money/currencies.js';
import { corpdata } from './support/cli.js';
import { dialects } from './support/dialects.js';
import { startApp, TEST_SECRET, type TestApp } from './support/test-app.js';

const GENERATOR = fileURLToPath(new URL('../dist/tools/generate-bundle.js', import.meta.url));

function generate(dir: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [GENERATOR, dir, ...args], (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : Number(error.code ?? 1), stdout, stderr }),
    );
  });
}

/** Rows of a generated CSV (no field of these holds a comma except quoted names, not read here). */
const rows = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8').trim().split('\n').slice(1);

const root = mkdtempSync(join(tmpdir(), 'corpdata-synthetic-'));
const bundle = join(root, 'bundle');
let summary: Record<string, number>;

beforeAll(async () => {
  const made = await generate(bundle, '--companies', '400', '--points', '3000', '--seed', '7');
  expect(made.code, made.stderr).toBe(0);
  summary = JSON.parse(made.stdout) as Record<string, number>;
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the synthetic bundle generator', () => {
  it('writes the same bytes for the same options, and other bytes for another seed', async () => {
    const again = join(root, 'again');
    const other = join(root, 'other');
    expect((await generate(again, '--companies', '400', '--points', '3000', '--seed', '7')).code).toBe(0);
    expect((await generate(other, '--companies', '400', '--points', '3000', '--seed', '8')).code).toBe(0);
    for (const file of readdirSync(bundle)) {
      expect(readFileSync(join(again, file)), file).toEqual(readFileSync(join(bundle, file)));
    }
    expect(readFileSync(join(other, 'companies.csv'))).not.toEqual(readFileSync(join(bundle, 'companies.csv')));
  });

  it('makes exactly the points asked for, in every currency, with documents in every state', () => {
    expect(summary).toMatchObject({ companies: 400, revenues: 3000 });
    expect(rows(bundle, 'revenues.csv')).toHaveLength(3000);
    const currencies = new Set(rows(bundle, 'revenues.csv').map((r) => r.split(',').at(-1)));
    expect([...currencies].sort()).toEqual([...CURRENCIES].sort());
    const statuses = new Set(rows(bundle, 'documents.csv').map((r) => r.split(',').at(-1)));
    expect([...statuses].sort()).toEqual(['failed', 'pending', 'processed']);
  });

  it('refuses bad arguments on stderr with a non-zero exit', async () => {
    for (const args of [
      [],
      [join(root, 'x'), '--companies', 'many', '--points', '1'],
      [join(root, 'y'), '--companies', '0', '--points', '1'],
    ]) {
      const r = await generate(...(args as [string, ...string[]]));
      expect(r.code, args.join(' ')).not.toBe(0);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/generate-bundle: /);
    }
  });
});

describe.each(dialects())('a synthetic bundle imported (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(dialect, { bundle });
  });
  afterAll(() => t.close());

  it('imports whole, and a second time changes nothing', async () => {
    const again = await corpdata(['import', bundle], { CORPDATA_DATABASE: t.database.url, CORPDATA_SECRET: TEST_SECRET });
    expect(again.code, again.stderr).toBe(0);
    expect(again.json()).toEqual({ ...summary, renormalized: 0 });
    const counted = await t.db.kysely
      .selectFrom('revenue_points')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(counted.n)).toBe(3000);
  });

  it('answers a search matching many companies with ten of them, never more', async () => {
    const names = await t.db.kysely.selectFrom('companies').select('name').execute();
    expect(names.filter(({ name }) => /\bAtlas\b/.test(name)).length).toBeGreaterThan(10);
    const { key } = await t.account();
    const res = await t.get('/api/v1/companies/search?query=atlas', key);
    expect([res.status, res.cost]).toEqual([200, 1]);
    const found = res.json<Array<{ company_name: string }>>();
    expect(found).toHaveLength(10);
    for (const { company_name } of found) expect(company_name).toMatch(/\bAtlas\b/);
  });

  it('serves a processed figure through the API, converted to USD', async () => {
    const point = await t.db.kysely
      .selectFrom('revenue_points as p')
      .innerJoin('documents as d', 'd.document_id', 'p.document_id')
      .select(['p.company_id', 'p.reporting_period', 'p.value_usd', 'p.original_ccy'])
      .where('d.status', '=', 'processed')
      .where('p.original_ccy', '=', 'ZAC')
      .where('p.reporting_period', '>=', 2020)
      .where('p.reporting_period', '<=', 2026)
      .orderBy('p.point_id')
      .executeTakeFirstOrThrow();
    const { key } = await t.account();
    const res = await t.get(`/api/v1/revenues?company_id=${point.company_id}&reporting_period=${point.reporting_period}`, key);
    expect(res.status).toBe(200);
    const values = res.json<Array<{ value: number; original_ccy: string }>>();
    expect(values).toContainEqual(expect.objectContaining({ value: Number(point.value_usd), original_ccy: 'ZAC' }));
  });
});
