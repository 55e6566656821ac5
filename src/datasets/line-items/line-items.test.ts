import { describe, expect, it } from 'vitest';
import { LINE_ITEM_TABLES } from '../../db/schema.js';
import { lineItemSpec, lineItemTable } from './line-item-dataset.js';
import { LINE_ITEMS } from './line-items.js';

describe('the line-item table', () => {
  it('has one figure table per row, and a row per table', () => {
    expect(LINE_ITEMS.map((i) => lineItemTable(i.name)).sort()).toEqual([...LINE_ITEM_TABLES].sort());
  });

  it('names each row once, with concepts of both taxonomies', () => {
    expect(new Set(LINE_ITEMS.map((i) => i.name)).size).toBe(LINE_ITEMS.length);
    for (const item of LINE_ITEMS) {
      expect(item.concepts['us-gaap'].length, item.name).toBeGreaterThan(0);
      expect(item.concepts['ifrs-full'].length, item.name).toBeGreaterThan(0);
    }
  });

  it('makes each row a kit spec: its own table, point ids, bundle file and period kind', () => {
    const specs = LINE_ITEMS.map(lineItemSpec);
    expect(new Set(specs.map((s) => s.bundleFile)).size).toBe(specs.length);
    expect(specs.find((s) => s.dataset === 'total-assets')?.period).toBe('year end');
    expect(specs.find((s) => s.dataset === 'gross-profit')?.period).toBeUndefined();
    expect(specs.find((s) => s.dataset === 'eps-diluted')?.perShare).toBe(true);
  });

  it('refuses a row without its table in LINE_ITEM_TABLES', () => {
    expect(() => lineItemTable('ebitda')).toThrow(/ebitda_points/);
  });
});
