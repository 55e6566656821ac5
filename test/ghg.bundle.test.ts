import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImportError } from '../src/ingest/sources/bundle/bundle-files.js';
import { exportBundle } from '../src/ingest/sources/bundle/export-bundle.js';
import { importBundle } from '../src/ingest/sources/bundle/import-bundle.js';
import { BUNDLES } from './support/datasets.js';
import { dialects } from './support/dialects.js';
import { BETA, ghgDoc } from './support/fixture.js';
import { GHG_BUNDLE, startApp, type TestApp } from './support/test-app.js';

const first = dialects()[0] ?? 'sqlite';
const last = dialects()[dialects().length - 1] ?? 'sqlite';
const PERIODS = [2021, 2022, 2023, 2024, -1, -2, -3];
const HEADER = 'company_id,document_id,reporting_period,scope,value,unit';

async function ghgRows(t: TestApp) {
  return t.db.kysely.selectFrom('ghg_points').selectAll().orderBy('point_id').execute();
}

describe.each([
  [first, last],
  [last, first],
] as const)('ghg_emissions.csv: export → import round trip (%s → %s)', (from, to) => {
  let source: TestApp;
  let target: TestApp;
  let dir: string;

  beforeAll(async () => {
    source = await startApp(from, { more: [GHG_BUNDLE] });
    dir = mkdtempSync(join(tmpdir(), 'corpdata-ghg-export-'));
    const summary = await exportBundle(source.db.kysely, join(dir, 'bundle'), BUNDLES);
    expect(summary.ghg_emissions).toBe(9);
    target = await startApp(to, { bundle: join(dir, 'bundle') });
  }, 120_000);
  afterAll(async () => {
    await source?.close();
    await target?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps each figure as reported (value, unit, page) and gives byte-identical answers', async () => {
    const written = readFileSync(join(dir, 'bundle', 'ghg_emissions.csv'), 'utf8');
    expect(written.split('\n')[0]).toBe(`${HEADER},page`);
    expect(written).toContain(`${BETA.id},${ghgDoc(1)},2023,1,1.2345,Mt,p. 42`);
    expect(await ghgRows(target)).toEqual(await ghgRows(source));
    const sourceKey = (await source.account({ credits: 100_000 })).key;
    const targetKey = (await target.account({ credits: 100_000 })).key;
    const companies = await source.db.kysely.selectFrom('companies').select('company_id').execute();
    const statuses = new Set<number>();
    for (const endpoint of ['ghg-emissions', 'ghg-intensity']) {
      for (const { company_id } of companies) {
        for (const period of PERIODS) {
          const path = `/api/v1/${endpoint}?company_id=${company_id}&reporting_period=${period}`;
          const [a, b] = await Promise.all([source.get(path, sourceKey), target.get(path, targetKey)]);
          expect([b.status, b.text], path).toEqual([a.status, a.text]);
          statuses.add(a.status);
        }
      }
    }
    expect([...statuses].sort()).toEqual([200, 204, 404]);
  }, 120_000);

  it('exports the export unchanged, and importing it again changes nothing', async () => {
    await exportBundle(target.db.kysely, join(dir, 'again'), BUNDLES);
    expect(readFileSync(join(dir, 'again', 'ghg_emissions.csv'), 'utf8')).toBe(
      readFileSync(join(dir, 'bundle', 'ghg_emissions.csv'), 'utf8'),
    );
    const before = await ghgRows(target);
    await importBundle(target.db.kysely, join(dir, 'bundle'), BUNDLES);
    expect(await ghgRows(target)).toEqual(before);
  });
});

describe.each(dialects())('ghg_emissions.csv: refused rows (%s)', (dialect) => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    t = await startApp(dialect, { more: [GHG_BUNDLE] });
    dir = mkdtempSync(join(tmpdir(), 'corpdata-ghg-bad-'));
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function refused(lines: string[], withDocuments = false): Promise<string[]> {
    const bundle = mkdtempSync(join(dir, 'b-'));
    if (withDocuments) cpSync(join(GHG_BUNDLE, 'documents.csv'), join(bundle, 'documents.csv'));
    writeFileSync(join(bundle, 'ghg_emissions.csv'), `${lines.join('\n')}\n`);
    const before = await ghgRows(t);
    const error = await importBundle(t.db.kysely, bundle, BUNDLES).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ImportError);
    expect(await ghgRows(t)).toEqual(before);
    return (error as ImportError).message.split('\n');
  }

  const row = (fields: Partial<Record<'company' | 'document' | 'period' | 'scope' | 'value' | 'unit', string>>) =>
    [
      fields.company ?? BETA.id,
      fields.document ?? ghgDoc(1),
      fields.period ?? '2023',
      fields.scope ?? '1',
      fields.value ?? '10',
      fields.unit ?? 't',
    ].join(',');

  it('reports every bad row as file:line and writes nothing', async () => {
    expect(
      await refused([
        HEADER,
        row({ unit: 'Gt' }),
        row({ scope: '2' }),
        row({ value: '-5' }),
        row({ value: '1e6' }),
        row({ period: '23' }),
        row({ company: 'beta' }),
      ]),
    ).toEqual([
      'ghg_emissions.csv:2: unit "Gt" is not one of t, kt, Mt',
      'ghg_emissions.csv:3: scope "2" is not one of 1, 2-location, 2-market, 3',
      'ghg_emissions.csv:4: value "-5" is not a non-negative decimal number',
      'ghg_emissions.csv:5: value "1e6" is not a non-negative decimal number',
      'ghg_emissions.csv:6: reporting_period "23" is not a year from 1990 to 2100',
      'ghg_emissions.csv:7: company_id "beta" is not a lower-case UUID',
    ]);
  });

  it('refuses unknown documents, another company’s document, a later period and a figure given twice', async () => {
    expect(
      await refused(
        [
          HEADER,
          row({ document: '20000000-0000-4000-8000-0000000000ff' }),
          row({ document: ghgDoc(3) }),
          row({ period: '2024' }),
          row({ scope: '3' }),
          row({ scope: '3', value: '11' }),
        ],
        true,
      ),
    ).toEqual([
      'ghg_emissions.csv:2: document_id 20000000-0000-4000-8000-0000000000ff is not in documents.csv nor in the database',
      `ghg_emissions.csv:3: document ${ghgDoc(3)} belongs to company 00000000-0000-4000-8000-000000000001, not ${BETA.id}`,
      'ghg_emissions.csv:4: reporting_period 2024 is after 2023, the period its document reports on',
      `ghg_emissions.csv:6: duplicate figure: scope 3 of 2023 in document ${ghgDoc(1)} is on line 5 too`,
    ]);
  });

  it('refuses a header without the required columns', async () => {
    const [message] = await refused(['company_id,document_id,reporting_period,scope,value', `${BETA.id},${ghgDoc(1)},2023,1,5`]);
    expect(message).toMatch(/^ghg_emissions\.csv:1: .*unit/);
  });
});
