import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from './support/dialects.js';
import { startApp, type TestAccount, type TestApp } from './support/test-app.js';

/** Real companies named in Cyrillic, Greek, Chinese, Japanese, Korean, Arabic, Hebrew and Devanagari. */
const NON_LATIN_BUNDLE = fileURLToPath(new URL('./fixtures/search/non-latin', import.meta.url));
const id = (n: number) => `00000000-0000-4000-8000-${String(100 + n).padStart(12, '0')}`;

describe.each(dialects())('company search in every script (%s)', (dialect) => {
  let t: TestApp;
  let caller: TestAccount;
  beforeAll(async () => {
    t = await startApp(dialect, { bundle: NON_LATIN_BUNDLE });
    caller = await t.account({ credits: 10_000 });
  });
  afterAll(() => t.close());

  const search = async (query: string) => {
    const res = await t.get(`/api/v1/companies/search?query=${encodeURIComponent(query)}`, caller.key);
    expect(res.status, query).toBe(200);
    return res.json<{ company_id: string; company_name: string }[]>().map((c) => c.company_id);
  };

  it.each([
    ['Cyrillic', 'казатомпром', 1],
    ['Cyrillic, a word of the name', 'Народный банк', 2],
    ['Greek, without its accents', 'μυτιληναιος', 6],
    ['Greek, in capitals', 'ΕΘΝΙΚΗ ΤΡΑΠΕΖΑ', 5],
    ['Chinese, the start of a name written without spaces', '腾讯', 7],
    ['Chinese, inside a name', '茅台', 8],
    ['Japanese', 'トヨタ', 9],
    ['Korean', '삼성', 11],
    ['Arabic', 'أرامكو', 12],
    ['Hebrew', 'הפועלים', 14],
    ['Devanagari', 'रिलायंस', 16],
  ])('%s: %s finds its company first', async (_script, query, n) => {
    expect((await search(query))[0]).toBe(id(n));
  });

  it('puts the company of an exact ISIN first', async () => {
    expect((await search('KYG875721634'))[0]).toBe(id(7));
  });

  it('answers 100 characters of punctuation with 200 and an empty list, at once', async () => {
    const noise = '!?.,;:-_()[]{}<>*+=~^|@#$%'.repeat(4).slice(0, 100);
    const started = performance.now();
    expect(await search(noise)).toEqual([]);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
