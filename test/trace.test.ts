import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pointId } from '../src/ingest/sources/bundle/import-bundle.js';
import { ConsoleClient, csrfOf } from './support/console-client.js';
import { dialects } from './support/dialects.js';
import { ALPHA, BETA, DELTA, doc } from './support/fixture.js';
import { PUBLIC_URL, startApp, type TestAccount, type TestApp } from './support/test-app.js';

const PASSWORD = 'trace page password';
const trace = (document: number, period: number) => `/trace/${pointId(doc(document), period)}`;
/** BETA 2023: first reported in doc 3 (8,362,000,000), restated in doc 4 (8,400,000,000). */
const BETA_2023_FIRST = trace(3, 2023);
const BETA_2023_RESTATED = trace(4, 2023);
const BETA_2023_VALUES = ['8,362,000,000', '8362000000', '8,400,000,000', '8400000000'];

describe.each(dialects())('traceability pages (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(dialect);
  });
  afterAll(() => t.close());

  async function signedIn(): Promise<{ account: TestAccount; client: ConsoleClient }> {
    const account = await t.account({ password: PASSWORD });
    const client = new ConsoleClient(t.url);
    expect((await client.signIn(account.email, PASSWORD)).status).toBe(303);
    return { account, client };
  }

  it('is where traceability_source_url points', async () => {
    const { account } = await signedIn();
    const res = await t.get('/api/v1/revenues?ticker=BETA&reporting_period=2023', account.key);
    const urls = res.json<Array<{ traceability_source_url: string }>>().map((r) => r.traceability_source_url);
    expect(urls).toEqual([PUBLIC_URL + BETA_2023_FIRST, PUBLIC_URL + BETA_2023_RESTATED]);
  });

  it('shows company, period and document to a visitor, asks to sign in, and hides every value', async () => {
    const res = await new ConsoleClient(t.url).get(BETA_2023_FIRST);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    for (const text of [
      'Beta Corporation',
      'United States',
      BETA.lei,
      BETA.isin,
      'BETA on XNYS',
      'Total Revenue',
      '2023',
      'Beta Form 10-K 2023',
      'href="https://example.com/beta/10k-2023.htm"',
      '2024-02-20',
      'processed',
    ]) {
      expect(res.text).toContain(text);
    }
    expect(res.text).toContain(`href="/account/sign-in?next=${encodeURIComponent(BETA_2023_FIRST)}"`);
    for (const v of BETA_2023_VALUES) expect(res.text).not.toContain(v);
  });

  it('hides values from a signed-in account until a paid revenues call buys the company-period', async () => {
    const { account, client } = await signedIn();
    const before = await client.get(BETA_2023_FIRST);
    expect(before.status).toBe(200);
    expect(before.text).toContain('has not bought the revenues of Beta Corporation, 2023');
    // It offers the console's buy step for exactly this company-period, and the API call.
    expect(before.text).toContain(`href="/account/companies/${BETA.id}/buy?dataset=revenues&#38;period=2023"`);
    expect(before.text).toContain('25 credits the first time');
    expect(before.text).toContain(`${PUBLIC_URL}/api/v1/revenues?company_id=${BETA.id}&#38;reporting_period=2023`);
    for (const v of BETA_2023_VALUES) expect(before.text).not.toContain(v);

    const paid = await t.get('/api/v1/revenues?ticker=BETA&reporting_period=2023', account.key);
    expect([paid.status, paid.cost]).toEqual([200, 25]);
    const after = await client.get(BETA_2023_FIRST);
    expect(after.text).toContain('8,362,000,000 USD');
    expect(after.text).toContain('8,400,000,000 USD'); // the restatement, in the list
    expect(after.text).toContain('none: the figure is in USD');
    expect(after.text).not.toContain('has not bought');

    // The purchase is of 2023 only: 2024's page keeps its value hidden.
    const other = await client.get(trace(4, 2024));
    expect(other.text).toContain('has not bought the revenues of Beta Corporation, 2024');
    expect(other.text).not.toContain('9,000,000,000');
  });

  it('lists the first report and every restatement of the company-period, each linking to its page', async () => {
    const first = await new ConsoleClient(t.url).get(BETA_2023_FIRST);
    const restated = await new ConsoleClient(t.url).get(BETA_2023_RESTATED);
    expect(first.text).toContain(`href="${BETA_2023_RESTATED}"`);
    expect(restated.text).toContain(`href="${BETA_2023_FIRST}"`);
    for (const page of [first.text, restated.text]) {
      expect(page).toContain('Beta Form 10-K 2023');
      expect(page).toContain('Beta Form 10-K 2024');
      expect(page.indexOf('Beta Form 10-K 2023', page.indexOf('All data points'))).toBeLessThan(
        page.indexOf('Beta Form 10-K 2024', page.indexOf('All data points')),
      );
    }
    expect(restated.text).toContain('Year of disclosure</dt><dd>2025');
  });

  it('shows the original value, currency, FX rate and its source once bought, a purchase by offset included', async () => {
    const { account, client } = await signedIn();
    expect((await t.get(`/api/v1/revenues?company_id=${ALPHA.id}&reporting_period=-1`, account.key)).status).toBe(200);
    const alpha = await client.get(trace(2, 2023));
    expect(alpha.text).toContain('23,168,372,290 USD');
    expect(alpha.text).toContain('21,427,000,000 EUR');
    expect(alpha.text).toContain('1.08127 USD per EUR');
    expect(alpha.text).toContain('IMF IFS annual average (test fixture)');
    expect(alpha.text).toContain('Alpha Industries AG');
    expect(alpha.text).toContain(ALPHA.isin);
    expect(alpha.text).toContain(ALPHA.secondaryIsin);

    expect((await t.get(`/api/v1/revenues?company_id=${DELTA.id}&reporting_period=2023`, account.key)).status).toBe(200);
    const delta = await client.get(trace(7, 2023));
    expect(delta.text).toContain('4,500,000,000,000 ZAC');
    expect(delta.text).toContain('2,443,500,000 USD');
    expect(delta.text).toContain('0.0543 USD per ZAR (ZAC is 1/100 ZAR)');
  });

  it('shows a pending document as pending', async () => {
    const res = await new ConsoleClient(t.url).get(trace(6, 2024));
    expect(res.status).toBe(200);
    expect(res.text).toContain('Gamma Annual Report 2024');
    expect(res.text).toContain('pending: not processed yet');
    expect(res.text).not.toContain('1,600,000,000');
  });

  it('answers 404 with a page for an unknown id', async () => {
    for (const id of ['00000000-0000-4000-8000-00000000dead', 'not-an-id', pointId(doc(3), 2021)]) {
      const res = await new ConsoleClient(t.url).get(`/trace/${id}`);
      expect(res.status, id).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.text).toContain('No such data point');
    }
  });

  it('returns to the trace page after signing in from it', async () => {
    const account = await t.account({ password: PASSWORD });
    const client = new ConsoleClient(t.url);
    const form = await client.get(`/account/sign-in?next=${encodeURIComponent(BETA_2023_FIRST)}`);
    expect(form.text).toContain(`name="next" value="${BETA_2023_FIRST}"`);
    const res = await client.post('/account/sign-in', {
      csrf: csrfOf(form.text),
      email: account.email,
      password: PASSWORD,
      next: BETA_2023_FIRST,
    });
    expect(res.status).toBe(303);
    expect(res.location).toBe(BETA_2023_FIRST);
  });
});
