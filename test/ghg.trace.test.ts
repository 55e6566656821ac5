import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ghgPointId } from '../src/datasets/ghg-emissions/ghg-bundle.js';
import { pointId } from '../src/ingest/sources/bundle/import-bundle.js';
import { ConsoleClient } from './support/console-client.js';
import { dialects } from './support/dialects.js';
import { BETA, doc, ghgDoc } from './support/fixture.js';
import { GHG_BUNDLE, PUBLIC_URL, startApp, type TestAccount, type TestApp } from './support/test-app.js';

const PASSWORD = 'ghg trace password';
/** Beta 2023, Scope 1 as first reported: 1.2345 Mt on page 42 of its 2023 sustainability report. */
const SCOPE1 = `/trace/${ghgPointId(ghgDoc(1), 2023, '1')}`;
/** Beta 2023, Scope 2 market-based: 300,000 t, no page recorded. */
const SCOPE2M = `/trace/${ghgPointId(ghgDoc(1), 2023, '2-market')}`;
/** Beta 2023 intensity of Scope 2 market-based: over the revenue restated in doc 4. */
const INTENSITY = `/trace/${ghgPointId(ghgDoc(1), 2023, '2-market')}~${pointId(doc(4), 2023)}`;

describe.each(dialects())('GHG traceability pages (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(dialect, { more: [GHG_BUNDLE] });
  });
  afterAll(() => t.close());

  async function signedIn(): Promise<{ account: TestAccount; client: ConsoleClient }> {
    const account = await t.account({ password: PASSWORD });
    const client = new ConsoleClient(t.url);
    expect((await client.signIn(account.email, PASSWORD)).status).toBe(303);
    return { account, client };
  }

  it('are where the records’ traceability_source_url point', async () => {
    const { account } = await signedIn();
    const emissions = await t.get('/api/v1/ghg-emissions?ticker=BETA&reporting_period=2023', account.key);
    const urls = emissions.json<Array<{ traceability_source_url: string }>>().map((r) => r.traceability_source_url);
    expect(urls).toContain(PUBLIC_URL + SCOPE1);
    const intensity = await t.get('/api/v1/ghg-intensity?ticker=BETA&reporting_period=2023', account.key);
    const intensityUrls = intensity.json<Array<{ traceability_source_url: string }>>().map((r) => r.traceability_source_url);
    expect(intensityUrls).toContain(PUBLIC_URL + INTENSITY);
  });

  it('show the report, its link and page to a visitor, and no value', async () => {
    const res = await new ConsoleClient(t.url).get(SCOPE1);
    expect(res.status).toBe(200);
    for (const text of [
      'Beta Corporation',
      'Scope 1',
      '2023',
      'Beta Sustainability Report 2023',
      'href="https://example.com/beta/sustainability-2023.pdf"',
      'p. 42',
      'MtCO2e',
    ]) {
      expect(res.text).toContain(text);
    }
    expect(res.text).toContain(`href="/account/sign-in?next=${encodeURIComponent(SCOPE1)}"`);
    expect(res.text).not.toContain('1,234,500');
    expect((await new ConsoleClient(t.url).get(SCOPE2M)).text).toContain('not recorded');
  });

  it('show the value and the unit conversion once the account bought the emissions of the company-period', async () => {
    const { account, client } = await signedIn();
    const before = await client.get(SCOPE1);
    expect(before.text).toContain('has not bought the GHG emissions of Beta Corporation, 2023');
    expect(before.text).toContain('/buy?dataset=ghg-emissions&#38;period=2023"');
    expect(before.text).not.toContain('1,234,500');
    // Revenues of the company-period are another dataset: they do not show emissions.
    expect((await t.get('/api/v1/revenues?ticker=BETA&reporting_period=2023', account.key)).cost).toBe(25);
    expect((await client.get(SCOPE1)).text).not.toContain('1,234,500');
    expect((await t.get('/api/v1/ghg-emissions?ticker=BETA&reporting_period=2023', account.key)).cost).toBe(25);
    const after = await client.get(SCOPE1);
    expect(after.text).toContain('1,234,500 tCO2e');
    expect(after.text).toContain('reported as 1.2345 MtCO2e × 1,000,000 = 1,234,500 tCO2e');
    expect(after.text).not.toContain('has not bought');
  });

  it('show, for an intensity, both source documents; its value once the intensity is bought', async () => {
    const { account, client } = await signedIn();
    const visitor = await new ConsoleClient(t.url).get(INTENSITY);
    expect(visitor.status).toBe(200);
    for (const text of [
      'GHG intensity',
      'Scope 2, market-based',
      'Beta Sustainability Report 2023',
      'href="https://example.com/beta/sustainability-2023.pdf"',
      'Beta Form 10-K 2024',
      'href="https://example.com/beta/10k-2024.htm"',
    ]) {
      expect(visitor.text).toContain(text);
    }
    expect(visitor.text).not.toContain('35.714');
    expect((await t.get('/api/v1/ghg-emissions?ticker=BETA&reporting_period=2023', account.key)).cost).toBe(25);
    expect((await client.get(INTENSITY)).text).not.toContain('35.714');
    expect((await t.get('/api/v1/ghg-intensity?ticker=BETA&reporting_period=2023', account.key)).cost).toBe(25);
    const bought = await client.get(INTENSITY);
    expect(bought.text).toContain('35.714 tCO2e/USD million');
    expect(bought.text).toContain('300,000 tCO2e');
    expect(bought.text).toContain('8,400,000,000 USD');
  });

  it('answer 404 for an intensity id whose parts do not belong together', async () => {
    const mixed = `/trace/${ghgPointId(ghgDoc(1), 2023, '1')}~${pointId(doc(4), 2024)}`;
    expect((await new ConsoleClient(t.url).get(mixed)).status).toBe(404);
    expect((await new ConsoleClient(t.url).get(`/trace/${BETA.id}~${BETA.id}`)).status).toBe(404);
  });
});
