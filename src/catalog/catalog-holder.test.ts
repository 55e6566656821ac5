import { describe, expect, it } from 'vitest';
import { Catalog } from './catalog.js';
import { CatalogHolder } from './catalog-holder.js';

const catalogOf = (name: string) =>
  new Catalog([
    {
      companyId: name,
      name,
      country: null,
      lei: null,
      cik: null,
      listings: [{ companyId: name, ticker: name, micCode: 'XNYS', isin: null, isPrimary: true, addedSeq: 1 }],
    },
  ]);

describe('CatalogHolder', () => {
  it('loads once, serves the old catalog while the next loads, then swaps', async () => {
    let version = 0;
    let release: () => void = () => undefined;
    const holder = new CatalogHolder(async () => {
      version += 1;
      if (version === 2) await new Promise<void>((r) => (release = r));
      return catalogOf(`V${version}`);
    });
    const first = await holder.get();
    expect(first.byTicker('V1')).toBeDefined();
    expect(await holder.get()).toBe(first);
    holder.invalidate();
    expect((await holder.get()).byTicker('V1')).toBeDefined();
    release();
    await new Promise((r) => setTimeout(r, 0));
    expect((await holder.get()).byTicker('V2')).toBeDefined();
  });

  it('reloads again when the data moved during a reload', async () => {
    let version = 0;
    const holder = new CatalogHolder(async () => catalogOf(`V${++version}`));
    await holder.get();
    holder.invalidate();
    holder.invalidate();
    await new Promise((r) => setTimeout(r, 0));
    await new Promise((r) => setTimeout(r, 0));
    expect((await holder.get()).byTicker(`V${version}`)).toBeDefined();
    expect(version).toBeGreaterThanOrEqual(2);
  });
});
