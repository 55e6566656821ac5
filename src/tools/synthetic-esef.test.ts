import { createReadStream, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_INGEST_LIMITS } from '../config.js';
import type { EsefReport } from '../ingest/sources/esef/esef-report.js';
import { readJsonInputs } from '../ingest/sources/esef/json-inputs.js';
import { readEsefIndexPage } from '../ingest/sources/esef/read-index.js';
import { readEsefReport } from '../ingest/sources/esef/read-report.js';
import { writeSyntheticEsef } from './synthetic-esef.js';

describe('synthetic ESEF reports', () => {
  let dir: string;
  const reports: EsefReport[] = [];
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'corpdata-synthetic-esef-'));
    const summary = await writeSyntheticEsef(dir, { reports: 3, seed: 7 });
    expect(summary).toMatchObject({ reports: 3, index_pages: 1 });
    const read = readJsonInputs([join(dir, 'reports')], DEFAULT_INGEST_LIMITS, 'reports', (chunks, source, name) =>
      readEsefReport(chunks, source, name, ['ifrs-full:Revenue', 'ifrs-full:ProfitLoss']),
    );
    for await (const r of read) reports.push(r);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('are read by the ESEF reader: a valid LEI, two years of revenue and profit, duplicates merged, axes left out', () => {
    expect(reports).toHaveLength(3);
    for (const r of reports) {
      expect(r.lei).toMatch(/^ZZZZ00[0-9A-Z]{14}$/);
      expect(r.entityName).toMatch(/^Synthetic Filer [0-9]+ S\.A\.$/);
      expect(r.facts.map((f) => f.concept).sort()).toEqual([
        'ifrs-full:ProfitLoss',
        'ifrs-full:ProfitLoss',
        'ifrs-full:Revenue',
        'ifrs-full:Revenue',
      ]);
      expect(r.facts.map((f) => f.end)).toContain(r.periodEnd);
      expect(r.skipped.inconsistent_duplicates).toBe(0);
      expect(r.skipped.duplicate).toBeGreaterThan(0);
      expect(r.skipped.dimensional).toBeGreaterThan(0);
      expect(r.factsRead).toBeGreaterThan(1000);
    }
  });

  it('are listed by index pages that name each report by LEI, period end and JSON file', async () => {
    const [page] = readdirSync(join(dir, 'index'));
    const path = join(dir, 'index', page ?? '');
    const listed = await readEsefIndexPage(createReadStream(path) as AsyncIterable<Buffer>, path);
    expect(listed.next).toBeNull();
    expect(listed.entries.map((e) => [e.lei, e.periodEnd, e.jsonUrl?.split('/').pop()]).sort()).toEqual(
      reports.map((r) => [r.lei, r.periodEnd, r.name]).sort(),
    );
  });

  it('are the same bytes for the same seed', async () => {
    const again = mkdtempSync(join(tmpdir(), 'corpdata-synthetic-esef-'));
    try {
      await writeSyntheticEsef(again, { reports: 3, seed: 7 });
      for (const name of readdirSync(join(dir, 'reports'))) {
        expect(readFileSync(join(again, 'reports', name)).equals(readFileSync(join(dir, 'reports', name)))).toBe(true);
      }
    } finally {
      rmSync(again, { recursive: true, force: true });
    }
  });
});
