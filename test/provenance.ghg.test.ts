import type { TSchema } from '@sinclair/typebox';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ghgPointId } from '../src/datasets/ghg-emissions/ghg-bundle.js';
import { GhgEmissionProvenanceSchema } from '../src/datasets/ghg-emissions/ghg-provenance.js';
import { GhgIntensityProvenanceSchema } from '../src/datasets/ghg-intensity/intensity-provenance.js';
import { pointId } from '../src/ingest/sources/bundle/import-bundle.js';
import { ConsoleClient } from './support/console-client.js';
import { dialects } from './support/dialects.js';
import { BETA, doc, ghgDoc } from './support/fixture.js';
import { GHG_BUNDLE, PUBLIC_URL, startApp, type TestApp } from './support/test-app.js';

const PASSWORD = 'ghg provenance password';
const JSON_ACCEPT = { accept: 'application/json' };
/** Beta 2023, Scope 1 as first reported: 1.2345 Mt on page 42 of its 2023 sustainability report. */
const SCOPE1 = ghgPointId(ghgDoc(1), 2023, '1');
/** Beta 2023, Scope 2 market-based: 300,000 t, no page recorded. */
const SCOPE2M = ghgPointId(ghgDoc(1), 2023, '2-market');
/** Beta 2023 intensity of Scope 2 market-based over the revenue restated in doc 4: 8,400,000,000 USD. */
const INTENSITY = `${SCOPE2M}~${pointId(doc(4), 2023)}`;
const EMISSIONS = '/api/v1/ghg-emissions?ticker=BETA&reporting_period=2023';
const INTENSITIES = '/api/v1/ghg-intensity?ticker=BETA&reporting_period=2023';
const REVENUES = '/api/v1/revenues?ticker=BETA&reporting_period=2023';

const ajv = new Ajv({ strict: false });
addFormats.default(ajv);
function expectValid(schema: TSchema, body: unknown): void {
  const validate = ajv.compile(schema);
  expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
}

const REPORT = {
  document_id: ghgDoc(1),
  title: 'Beta Sustainability Report 2023',
  source_url: 'https://example.com/beta/sustainability-2023.pdf',
  published_on: '2024-04-10',
  status: 'processed',
};

interface Answer {
  values_included: boolean;
  values: Record<string, unknown> | null;
}

describe.each(dialects())('GHG provenance as JSON (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(dialect, { more: [GHG_BUNDLE] });
  });
  afterAll(() => t.close());
  afterEach(() => t.expectLedgersBalance());

  const ledgerRows = async (accountId: string) =>
    (await t.db.kysely.selectFrom('ledger').select('account_id').where('account_id', '=', accountId).execute()).length;

  it('an emission point: the report for any key, free; the figures once its emissions are bought', async () => {
    const a = await t.account({ credits: 100 });
    const before = await t.get(`/api/v1/trace/${SCOPE1}`, a.key);
    expect(before.status).toBe(200);
    expect([before.cost, before.balance]).toEqual([0, 100]);
    expect(before.json()).toEqual({
      data_point_id: SCOPE1,
      company_id: BETA.id,
      company_name: 'Beta Corporation',
      dataset: 'ghg-emissions',
      scope: '1',
      reporting_period: 2023,
      document: { ...REPORT, page: 'p. 42' },
      unit: 'tCO2e',
      values_included: false,
      values: null,
      traceability_source_url: `${PUBLIC_URL}/trace/${SCOPE1}`,
    });
    expectValid(GhgEmissionProvenanceSchema, before.json());
    expect(before.text).not.toContain('1234500');
    expect((await t.get(`/api/v1/trace/${SCOPE2M}`, a.key)).json<{ document: { page: unknown } }>().document.page).toBeNull();

    // Revenues of the company-period are another dataset: buying them shows no emission figure.
    expect((await t.get(REVENUES, a.key)).cost).toBe(25);
    const afterRevenues = await t.get(`/api/v1/trace/${SCOPE1}`, a.key);
    expect(afterRevenues.json<Answer>()).toMatchObject({ values_included: false, values: null });

    expect((await t.get(EMISSIONS, a.key)).cost).toBe(25);
    const rows = await ledgerRows(a.accountId);
    const after = await t.get(`/api/v1/trace/${SCOPE1}`, a.key);
    expect([after.status, after.cost, after.balance]).toEqual([200, 0, 50]);
    expect(after.json<Answer>()).toMatchObject({
      values_included: true,
      values: { value: 1234500, source_value: '1.2345', source_unit: 'Mt' },
    });
    expectValid(GhgEmissionProvenanceSchema, after.json());
    expect(await ledgerRows(a.accountId)).toBe(rows);
    // Another account's key still sees no figures.
    expect((await t.get(`/api/v1/trace/${SCOPE1}`, (await t.account()).key)).json<Answer>().values).toBeNull();
  });

  it('an intensity point: both documents for any key, free; the figures only once the intensity is bought', async () => {
    const a = await t.account({ credits: 100 });
    const before = await t.get(`/api/v1/trace/${INTENSITY}`, a.key);
    expect([before.status, before.cost, before.balance]).toEqual([200, 0, 100]);
    expect(before.json()).toEqual({
      data_point_id: INTENSITY,
      company_id: BETA.id,
      company_name: 'Beta Corporation',
      dataset: 'ghg-intensity',
      scope: '2-market',
      reporting_period: 2023,
      emissions_document: { ...REPORT, page: null },
      revenue_document: {
        document_id: doc(4),
        title: 'Beta Form 10-K 2024',
        source_url: 'https://example.com/beta/10k-2024.htm',
        published_on: '2025-02-18',
        status: 'processed',
      },
      values_included: false,
      values: null,
      traceability_source_url: `${PUBLIC_URL}/trace/${INTENSITY}`,
    });
    expectValid(GhgIntensityProvenanceSchema, before.json());

    // Neither its revenues nor its emissions show an intensity: it is a dataset of its own.
    expect((await t.get(REVENUES, a.key)).cost).toBe(25);
    expect((await t.get(EMISSIONS, a.key)).cost).toBe(25);
    expect((await t.get(`/api/v1/trace/${INTENSITY}`, a.key)).json<Answer>()).toMatchObject({
      values_included: false,
      values: null,
    });
    // The emission point itself is now shown: the purchase is per dataset, not per company-period.
    expect((await t.get(`/api/v1/trace/${SCOPE2M}`, a.key)).json<Answer>().values_included).toBe(true);

    const b = await t.account({ credits: 100 });
    expect((await t.get(INTENSITIES, b.key)).cost).toBe(25);
    const rows = await ledgerRows(b.accountId);
    const after = await t.get(`/api/v1/trace/${INTENSITY}`, b.key);
    expect([after.status, after.cost, after.balance]).toEqual([200, 0, 75]);
    expect(after.json<Answer>()).toMatchObject({
      values_included: true,
      values: { value: 35.714, unit: 'tCO2e/USD million', emissions_value: 300000, revenue_usd: 8400000000 },
    });
    expectValid(GhgIntensityProvenanceSchema, after.json());
    expect(await ledgerRows(b.accountId)).toBe(rows);
    // The intensity's emission point is another dataset's: not shown by buying the intensity.
    expect((await t.get(`/api/v1/trace/${SCOPE2M}`, b.key)).json<Answer>().values).toBeNull();
  });

  it('refuses: 404 for an unknown id or parts that do not belong together, 400 naming id for a malformed one', async () => {
    const a = await t.account();
    for (const id of [
      '00000000-0000-4000-8000-00000000ffff',
      `00000000-0000-4000-8000-00000000ffff~${pointId(doc(4), 2023)}`,
      `${SCOPE1}~${pointId(doc(4), 2024)}`,
      `${BETA.id}~${BETA.id}`,
    ]) {
      const res = await t.get(`/api/v1/trace/${id}`, a.key);
      expect([id, res.status]).toEqual([id, 404]);
    }
    for (const id of ['not-a-uuid', `${SCOPE1}~`, `${SCOPE1}~${SCOPE1}~x`, `${SCOPE1}x`]) {
      const res = await t.get(`/api/v1/trace/${encodeURIComponent(id)}`, a.key);
      expect([id, res.status]).toEqual([id, 400]);
      expect(res.text).toContain("'id'");
    }
    expect(await ledgerRows(a.accountId)).toBe(1); // the grant
  });

  it('takes any uuid or uuid~uuid in any case as an id (404 when unknown), and refuses anything else naming id', async () => {
    const a = await t.account();
    const mixCase = (id: string, upper: boolean[]) =>
      [...id].map((c, i) => (upper[i % upper.length] ? c.toUpperCase() : c)).join('');
    const well = fc
      .tuple(fc.uuid(), fc.option(fc.uuid(), { nil: undefined }), fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }))
      .map(([e, r, upper]) => mixCase(r === undefined ? e : `${e}~${r}`, upper));
    await fc.assert(
      fc.asyncProperty(well, async (id) => {
        const res = await t.get(`/api/v1/trace/${id}`, a.key);
        expect([id, res.status]).toEqual([id, 404]);
      }),
      { numRuns: 25 },
    );
    const uuid = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
    const valid = new RegExp(`^${uuid}(~${uuid})?$`, 'i');
    const chars = fc.constantFrom(...'0123456789abcdefABCDEFgz-~_.'.split(''));
    const malformed = fc.oneof(
      fc.string({ unit: chars, minLength: 1, maxLength: 90 }),
      fc.tuple(fc.uuid(), fc.string({ unit: chars, minLength: 1, maxLength: 12 })).map(([u, tail]) => u + tail),
    );
    await fc.assert(
      fc.asyncProperty(
        malformed.filter((id) => !valid.test(id) && id !== '.' && id !== '..'),
        async (id) => {
          const res = await t.get(`/api/v1/trace/${id}`, a.key);
          expect([id, res.status]).toEqual([id, 400]);
          expect(res.text).toContain("'id'");
        },
      ),
      { numRuns: 40 },
    );
    // A known emission point in upper case is the same point.
    expect((await t.get(`/api/v1/trace/${SCOPE1.toUpperCase()}`, a.key)).json<{ data_point_id: string }>().data_point_id).toBe(
      SCOPE1,
    );
  });

  it('/trace/{id} with Accept: application/json: an emission and an intensity for a console session', async () => {
    const visitor = await fetch(`${t.url}/trace/${SCOPE1}`, { headers: JSON_ACCEPT });
    expect(visitor.status).toBe(200);
    expect(visitor.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await visitor.json()).toMatchObject({ data_point_id: SCOPE1, dataset: 'ghg-emissions', values: null });
    const intensityVisitor = await fetch(`${t.url}/trace/${INTENSITY}`, { headers: JSON_ACCEPT });
    expect(await intensityVisitor.json()).toMatchObject({ data_point_id: INTENSITY, dataset: 'ghg-intensity', values: null });

    const account = await t.account({ password: PASSWORD });
    const client = new ConsoleClient(t.url);
    expect((await client.signIn(account.email, PASSWORD)).status).toBe(303);
    const json = async (id: string) =>
      JSON.parse((await client.request('GET', `/trace/${id}`, undefined, JSON_ACCEPT)).text) as Answer;
    expect((await json(SCOPE1)).values).toBeNull();
    expect((await t.get(EMISSIONS, account.key)).cost).toBe(25);
    expect((await json(SCOPE1)).values).toEqual({ value: 1234500, source_value: '1.2345', source_unit: 'Mt' });
    expect((await json(INTENSITY)).values).toBeNull();
    expect((await t.get(INTENSITIES, account.key)).cost).toBe(25);
    expect((await json(INTENSITY)).values).toMatchObject({ value: 35.714 });

    const missing = await fetch(`${t.url}/trace/${SCOPE1}~${SCOPE1}`, { headers: JSON_ACCEPT });
    expect(missing.status).toBe(404);
  });
});
