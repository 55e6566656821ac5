import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundlesOf } from '../src/datasets/dataset-list.js';
import { moneyFigureDataset } from '../src/datasets/kit/money-figures/money-figure-dataset.js';
import type { MoneyFigureSpec } from '../src/datasets/kit/money-figures/money-figure-spec.js';
import { createFigureTable } from '../src/db/figure-table.js';
import type { FigurePointTable } from '../src/db/schema.js';
import { exportBundle } from '../src/ingest/sources/bundle/export-bundle.js';
import { importBundle } from '../src/ingest/sources/bundle/import-bundle.js';
import { DATASETS } from './support/datasets.js';
import { dialects } from './support/dialects.js';
import { ALPHA, BETA, doc } from './support/fixture.js';
import { PUBLIC_URL, startApp, type TestApp } from './support/test-app.js';

// The test dataset's figure table, added to the schema's figure tables for the tests alone (the
// product's build never reads this file).
declare module '../src/db/schema.js' {
  interface FigureTables {
    kit_figure_points: FigurePointTable;
  }
}

const KIT_BUNDLE = fileURLToPath(new URL('./fixtures/kit-bundle', import.meta.url));

/** A money dataset that is nothing but its declaration: the kit does the rest. */
const SPEC: MoneyFigureSpec & { metric: 'Kit Figure' } = {
  dataset: 'kit-figures',
  table: 'kit_figure_points',
  metric: 'Kit Figure',
  pointKey: 'kit-figure',
  mockSeed: 'kit-figure',
  mockSign: 'either',
  prices: { firstAccess: 25, repeat: 1, noData: 1 },
  bundleFile: 'kit_figures.csv',
  wording: {
    recordTitle: 'KitFigureRecord',
    provenanceTitle: 'KitFigureProvenance',
    value: 'The kit figure in USD.',
    originalValue: 'The kit figure as reported, in original_ccy.',
    offerLabel: 'kit figures',
    concept: 'kit concept',
    conceptRule: 'The concept is the only kit concept.',
  },
};
const KIT = moneyFigureDataset(SPEC, {
  label: 'Kit figures',
  subscription: 'kit',
  route: {
    path: '/api/v1/kit-figures',
    operationId: 'getKitFigures',
    periodsOperationId: 'getKitFigurePeriods',
    summary: 'A kit figure of one company for one reporting period, in USD',
    description: 'Costs 25 credits for the first access to a company-period, 1 for a repeat, 1 for a 204; errors are free.',
    tag: 'kit',
    tagDescription: 'Kit figures',
    ok: 'Every kit figure of the company-period.',
    noData: 'No kit figure was published for it.',
    forbidden: 'The account has no subscription to the kit dataset.',
  },
});

describe.each(dialects())('a money dataset declared through the kit (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(dialect, {
      datasets: [...DATASETS, KIT],
      more: [KIT_BUNDLE],
      prepare: (db) => createFigureTable(db.kysely, SPEC.table),
    });
  });
  afterAll(() => t.close());

  it('serves its bundle figures in USD, negative ones included, billed apart', async () => {
    const account = await t.account();
    const res = await t.get(`/api/v1/kit-figures?company_id=${ALPHA.id}&reporting_period=2022`, account.key);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-credit-cost')).toBe('25');
    const [record, ...rest] = (await res.json()) as Array<Record<string, unknown>>;
    expect(rest).toEqual([]);
    // -1,500,000,000 EUR × 1.05306 USD per EUR (the fixture's 2022 rate)
    expect(record).toMatchObject({
      metric: 'Kit Figure',
      value: -1_579_590_000,
      ccy: 'USD',
      original_value: -1_500_000_000,
      original_ccy: 'EUR',
      company_id: ALPHA.id,
      document_id: doc(1),
    });
    const revenue = await t.get(`/api/v1/revenues?company_id=${ALPHA.id}&reporting_period=2022`, account.key);
    expect(revenue.headers.get('x-credit-cost')).toBe('25');
    const [first] = (await revenue.json()) as Array<{ traceability_source_url: string }>;
    expect(first?.traceability_source_url).not.toBe(record?.traceability_source_url);
  });

  it('joins the statement call by itself: an item of its own, billed with the others', async () => {
    const account = await t.account();
    const res = await t.get(`/api/v1/fundamentals?company_id=${ALPHA.id}&reporting_period=2022`, account.key);
    expect(res.status).toBe(200);
    const { items } = (await res.json()) as { items: Record<string, Array<{ value: number }>> };
    expect(Object.keys(items)).toEqual([...DATASETS.filter((d) => d.statementItem === true).map((d) => d.name), 'kit-figures']);
    expect(items['kit-figures']?.map((r) => r.value)).toEqual([-1_579_590_000]);
    // Revenue and the kit figure bought (25 each), every other item a covered period without a figure (1 each).
    expect(res.headers.get('x-credit-cost')).toBe(String(50 + (Object.keys(items).length - 2)));
  });

  it('has a trace page and a provenance answer of its own', async () => {
    const account = await t.account();
    const res = await t.get(`/api/v1/kit-figures?company_id=${BETA.id}&reporting_period=2023`, account.key);
    const [record] = (await res.json()) as Array<{ traceability_source_url: string }>;
    const url = record?.traceability_source_url ?? '';
    expect(url.startsWith(`${PUBLIC_URL}/trace/`)).toBe(true);
    const path = url.slice(PUBLIC_URL.length);
    const page = await (await fetch(`${t.url}${path}`)).text();
    expect(page).toContain('Kit Figure of');
    expect(page).not.toContain('1,200,000,000');
    const provenance = await t.get(`/api/v1${path}`, account.key);
    expect(await provenance.json()).toMatchObject({
      metric: 'Kit Figure',
      values_included: true,
      values: { value: 1_200_000_000 },
    });
  });

  it('exports its file and refuses a figure given twice, naming file and line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kit-'));
    try {
      const bundles = bundlesOf([...DATASETS, KIT]);
      await exportBundle(t.db.kysely, join(dir, 'out'), bundles);
      const exported = readFileSync(join(dir, 'out', 'kit_figures.csv'), 'utf8');
      expect(exported).toContain(`${ALPHA.id},${doc(1)},2022,-1500000000,EUR`);
      const twice = join(dir, 'twice');
      await exportBundle(t.db.kysely, twice, bundles);
      const lines = readFileSync(join(twice, 'kit_figures.csv'), 'utf8').trimEnd().split('\n');
      writeFileSync(join(twice, 'kit_figures.csv'), `${[...lines, lines[1]].join('\n')}\n`);
      await expect(importBundle(t.db.kysely, twice, bundles)).rejects.toThrow(
        `kit_figures.csv:${lines.length + 1}: duplicate figure`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
