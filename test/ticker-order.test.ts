import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from './support/dialects.js';
import { startApp, type TestApp } from './support/test-app.js';

/** Companies that share tickers across exchanges, added in an order that the rule must override. */
const BUNDLE = fileURLToPath(new URL('./fixtures/ticker-order', import.meta.url));
const id = (n: number) => `40000000-0000-4000-8000-00000000000${n}`;

/**
 * A plain ticker (design §1.3): among the companies with a listing of that ticker, the one on the
 * exchange first in the order by market capitalization, every other market after them by MIC;
 * then the primary listing; then the earliest added.
 */
describe.each(dialects())('a plain ticker names the company of the first exchange (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(dialect, { bundle: BUNDLE });
  });
  afterAll(() => t.close());

  const companyOf = async (query: string, key: string) => {
    const res = await t.get(`/api/v1/revenues/periods?${query}`, key);
    expect(res.status, query).toBe(200);
    return res.json<{ company_id: string }>().company_id;
  };

  it('MRK is Merck & Co. (NYSE) before Merck KGaA (Xetra), though Xetra was added first; a mic_code still picks', async () => {
    const { key } = await t.account();
    expect(await companyOf('ticker=MRK', key)).toBe(id(2));
    expect(await companyOf('ticker=mrk', key)).toBe(id(2));
    expect(await companyOf('ticker=MRK&mic_code=XETR', key)).toBe(id(1));
  });

  it('AAL is American Airlines (Nasdaq) before Anglo American (London)', async () => {
    const { key } = await t.account();
    expect(await companyOf('ticker=AAL', key)).toBe(id(4));
    expect(await companyOf('ticker=AAL&mic_code=XLON', key)).toBe(id(3));
  });

  it('markets outside the order come after it, by MIC; on one market the primary listing comes first', async () => {
    const { key } = await t.account();
    expect(await companyOf('ticker=VSM', key)).toBe(id(6)); // XATH before XBUE
    // Nasdaq's markets are one exchange: a primary listing on one before a secondary on another.
    expect(await companyOf('ticker=TWL', key)).toBe(id(7));
  });
});
