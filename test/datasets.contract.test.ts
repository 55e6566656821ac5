import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TSchema } from '@sinclair/typebox';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TEST_TOKEN } from '../src/auth/test-token.js';
import { DOCUMENT_KINDS } from '../src/db/schema.js';
import { ImportError } from '../src/ingest/sources/bundle/bundle-files.js';
import { importBundle } from '../src/ingest/sources/bundle/import-bundle.js';
import { ConsoleClient } from './support/console-client.js';
import { BUNDLES, DATASETS, SUBSCRIPTIONS } from './support/datasets.js';
import { dialects } from './support/dialects.js';
import { startApp, type TestAccount, type TestApp } from './support/test-app.js';

/**
 * The contract every registered dataset keeps (design §1, §2, §11, §13), run for each of them on
 * each database, as Kysely runs every test for every dialect: the order of refusals, the prices
 * and the ledger, 204, the test token, trace pages and provenance, the bundle file's errors, the
 * OpenAPI entry. The data is a small bundle built here from each dataset's `example` row: one
 * company with, for 2023 and 2024, a processed document of every kind; the 2023 documents carry
 * every example figure, the 2024 ones none (a covered period without a figure: 204).
 */

const COMPANY = { id: '40000000-0000-4000-8000-000000000001', ticker: 'CTRT', mic: 'XNYS' };
const UNKNOWN_COMPANY = '40000000-0000-4000-8000-0000000000ff';
const WITH_DATA = 2023;
const WITHOUT_DATA = 2024;
const NOT_COVERED = 2022;
const PASSWORD = 'contract test password';

const documentId = (period: number, kind: string): string =>
  `41000000-0000-4000-8000-${String(period)}${String(DOCUMENT_KINDS.indexOf(kind as never) + 1).padStart(8, '0')}`;

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
/** Validates as the OpenAPI document's readers do (formats included); the errors when it does not. */
const invalid = (schema: TSchema, value: unknown): string | null =>
  ajv.validate(schema, value) ? null : `${ajv.errorsText()} in ${JSON.stringify(value)}`;

const csv = (rows: ReadonlyArray<ReadonlyArray<string>>): string => `${rows.map((r) => r.join(',')).join('\n')}\n`;

/** The rows of each example file: header, then one line per dataset whose example lives there. */
function exampleFiles(): Map<string, string[][]> {
  const files = new Map<string, string[][]>();
  for (const d of DATASETS) {
    if (d.example === undefined) continue;
    const { file, documentKind, row } = d.example;
    const header = ['company_id', 'document_id', 'reporting_period', ...Object.keys(row)];
    const rows = files.get(file) ?? [header];
    rows.push([COMPANY.id, documentId(WITH_DATA, documentKind), String(WITH_DATA), ...Object.values(row)]);
    files.set(file, rows);
  }
  return files;
}

/** Writes the contract bundle into `dir`. */
function writeBundle(dir: string): void {
  writeFileSync(
    join(dir, 'companies.csv'),
    csv([
      ['company_id', 'name', 'country', 'lei', 'ticker', 'mic_code', 'isin'],
      [COMPANY.id, 'Contract Testing Inc.', 'United States', '', COMPANY.ticker, COMPANY.mic, ''],
    ]),
  );
  writeFileSync(
    join(dir, 'documents.csv'),
    csv([
      ['document_id', 'company_id', 'title', 'source_url', 'published_on', 'reporting_period', 'status', 'kind'],
      ...[WITH_DATA, WITHOUT_DATA].flatMap((period) =>
        DOCUMENT_KINDS.map((kind) => [
          documentId(period, kind),
          COMPANY.id,
          `Contract Testing ${kind} report ${period}`,
          `https://example.com/contract/${kind}-${period}.pdf`,
          `${period + 1}-03-01`,
          String(period),
          'processed',
          kind,
        ]),
      ),
    ]),
  );
  for (const [file, rows] of exampleFiles()) writeFileSync(join(dir, file), csv(rows));
}

const query = (period: number | string, ticker = COMPANY.ticker) => `ticker=${ticker}&reporting_period=${period}`;
const traceIdOf = (url: string): string => url.slice(url.lastIndexOf('/trace/') + '/trace/'.length);

it('every registered dataset has an example row, or is made of others that have one', () => {
  for (const d of DATASETS) {
    // A dataset with a bundle file of its own has its example row in that file.
    if (d.bundle !== undefined) expect(d.example?.file, d.name).toBe(d.bundle.file);
  }
  expect(DATASETS.some((d) => d.example !== undefined)).toBe(true);
});

describe.each(dialects())('the dataset contract (%s)', (dialect) => {
  let t: TestApp;
  let bundle: string;
  beforeAll(async () => {
    bundle = mkdtempSync(join(tmpdir(), 'corpdata-contract-'));
    writeBundle(bundle);
    t = await startApp(dialect, { bundle });
  }, 60_000);
  afterAll(async () => {
    await t.close();
    rmSync(bundle, { recursive: true, force: true });
  });
  afterEach(() => t.expectLedgersBalance());

  describe.each([...DATASETS])('$name', (d) => {
    const path = (q: string) => `${d.route.path}?${q}`;
    const others = SUBSCRIPTIONS.filter((s) => s !== d.subscription);
    const { firstAccess, repeat, noData } = d.prices;

    it('refuses in the order 401 → 400 → 403 → 404 → 402, each free', async () => {
      const rich = await t.account({ credits: 100 });
      const poor = await t.account({ credits: 0 });
      const unsubscribed = await t.account({ credits: 100, subscriptions: others });
      // 401 before anything: no key, a malformed one, a forged one, even with bad parameters.
      for (const key of [null, 'not-a-jwt', 'eyJhbGciOiJIUzI1NiJ9.e30.AAAA']) {
        const res = await t.get(path(query(1999, 'NOPE')), key);
        expect([res.status, res.cost], String(key)).toEqual([401, null]);
        expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      }
      // 400 before the subscription, the company and the balance; it names the parameter.
      for (const caller of [rich, poor, unsubscribed]) {
        const res = await t.get(path(query(1999, 'NOPE')), caller.key);
        expect([res.status, res.cost]).toEqual([400, null]);
        expect(res.text).toContain('reporting_period');
      }
      expect((await t.get(d.route.path, rich.key)).status).toBe(400);
      // 403 before the company: known or not, without the subscription; it quotes the price, charges nothing.
      for (const q of [query(WITH_DATA), `company_id=${UNKNOWN_COMPANY}&reporting_period=${WITH_DATA}`]) {
        const res = await t.get(path(q), unsubscribed.key);
        expect([res.status, res.cost, res.balance], q).toEqual([403, firstAccess, 100]);
      }
      const problem = await t.get(path(query(WITH_DATA)), unsubscribed.key, { accept: 'application/problem+json' });
      expect(problem.json()).toMatchObject({ status: 403, required_subscription: d.subscription });
      // 404 before the balance: unknown company, a period not covered, an offset beyond the periods.
      for (const q of [query(WITH_DATA, 'NOPE'), query(NOT_COVERED), query(-3)]) {
        for (const caller of [rich, poor]) {
          const res = await t.get(path(q), caller.key);
          expect([res.status, res.cost], q).toEqual([404, null]);
        }
      }
      // 402 last: the price of this call is above the balance, and nothing is charged.
      const short = await t.account({ credits: firstAccess - 1 });
      const refused = await t.get(path(query(WITH_DATA)), short.key);
      expect([refused.status, refused.cost, refused.balance]).toEqual([402, firstAccess, firstAccess - 1]);
      const noDataRefused = await t.get(path(query(WITHOUT_DATA)), poor.key);
      expect([noDataRefused.status, noDataRefused.cost, noDataRefused.balance]).toEqual([402, noData, 0]);
      for (const caller of [rich, poor, unsubscribed, short]) {
        expect((await t.get('/api/v1/account', caller.key)).json(), caller.email).toMatchObject({
          balance: caller === rich || caller === unsubscribed ? 100 : caller === short ? firstAccess - 1 : 0,
        });
      }
    });

    it('charges the first access, then the repeat price, and the 204 price; the ledger names the dataset', async () => {
      const a = await t.account({ credits: 100 });
      const first = await t.get(path(query(WITH_DATA)), a.key);
      expect([first.status, first.cost, first.balance]).toEqual([200, firstAccess, 100 - firstAccess]);
      const records = first.json<Array<Record<string, unknown>>>();
      expect(records.length).toBeGreaterThan(0);
      for (const r of records) {
        expect(invalid(d.recordSchema, r)).toBeNull();
        expect([r.company_id, r.reporting_period]).toEqual([COMPANY.id, WITH_DATA]);
      }
      // The same company-period by another identifier and by offset is the same purchase.
      const again = await t.get(path(`company_id=${COMPANY.id}&reporting_period=-2`), a.key);
      expect([again.status, again.cost, again.text]).toEqual([200, repeat, first.text]);
      const empty = await t.get(path(query(WITHOUT_DATA)), a.key);
      expect([empty.status, empty.cost, empty.text]).toEqual([204, noData, '']);
      expect(empty.balance).toBe(100 - firstAccess - repeat - noData);
      const ledger = await t.db.kysely
        .selectFrom('ledger')
        .select(['amount', 'kind', 'endpoint', 'company_id', 'reporting_period'])
        .where('account_id', '=', a.accountId)
        .where('kind', '!=', 'grant')
        .orderBy('entry_id')
        .execute();
      expect(ledger.map((l) => [Number(l.amount), l.endpoint, l.company_id, l.reporting_period])).toEqual([
        [-firstAccess, d.name, COMPANY.id, WITH_DATA],
        [-repeat, d.name, COMPANY.id, WITH_DATA],
        [-noData, d.name, COMPANY.id, WITHOUT_DATA],
      ]);
    });

    it('charges the first access once for concurrent first calls to one company-period', async () => {
      const a = await t.account({ credits: 1000 });
      const n = 12;
      const answers = await Promise.all(Array.from({ length: n }, () => t.get(path(query(WITH_DATA)), a.key)));
      expect(answers.map((r) => r.status)).toEqual(Array(n).fill(200));
      expect(answers.map((r) => r.cost).sort((x, y) => (y ?? 0) - (x ?? 0))).toEqual([firstAccess, ...Array(n - 1).fill(repeat)]);
      expect((await t.get('/api/v1/account', a.key)).json()).toMatchObject({ balance: 1000 - firstAccess - (n - 1) * repeat });
    });

    it('bills a batch and a history as their single calls, the ledger naming the dataset’s operation', async () => {
      const a = await t.account({ credits: 100 });
      const jobs = [
        { ticker: COMPANY.ticker, reporting_period: WITH_DATA },
        { ticker: COMPANY.ticker, reporting_period: WITHOUT_DATA },
        { ticker: 'NOPE', reporting_period: WITH_DATA },
      ];
      const batch = await t.post(`${d.route.path}/batch`, { jobs }, a.key);
      expect([batch.status, batch.cost]).toEqual([200, firstAccess + noData]);
      const { results } = batch.json<{ results: Array<{ status: number; data?: unknown[] }> }>();
      expect(results.map((r) => r.status)).toEqual([200, 204, 404]);
      const single = await t.get(path(query(WITH_DATA)), a.key);
      expect([single.cost, results[0]?.data]).toEqual([repeat, single.json()]);
      const history = await t.get(`${d.route.path}/history?ticker=${COMPANY.ticker}&from=${WITH_DATA}&to=${WITHOUT_DATA}`, a.key);
      expect([history.status, history.cost]).toEqual([200, noData + repeat]);
      expect(history.json()).toEqual({
        company_id: COMPANY.id,
        periods: [
          { reporting_period: WITHOUT_DATA, records: [] },
          { reporting_period: WITH_DATA, records: single.json() },
        ],
      });
      const endpoints = await t.db.kysely
        .selectFrom('ledger')
        .select('endpoint')
        .where('account_id', '=', a.accountId)
        .where('kind', '!=', 'grant')
        .orderBy('entry_id')
        .execute();
      expect(endpoints.map((l) => l.endpoint)).toEqual([
        `${d.name}/batch`,
        `${d.name}/batch`,
        d.name,
        `${d.name}/history`,
        `${d.name}/history`,
      ]);
    });

    it('lists the covered periods for free, most recent first', async () => {
      const a = await t.account({ credits: 5 });
      const res = await t.get(`${d.route.path}/periods?ticker=${COMPANY.ticker}`, a.key);
      expect([res.status, res.cost, res.balance]).toEqual([200, 0, 5]);
      expect(res.json()).toEqual({ company_id: COMPANY.id, reporting_periods: [WITHOUT_DATA, WITH_DATA] });
    });

    it('answers the test token with mock records of its schema, for free, marked as such', async () => {
      const res = await t.get(path(query(-1, 'ANY')), TEST_TOKEN);
      expect([res.status, res.cost, res.headers.get('x-test-mode')]).toEqual([200, 0, 'true']);
      const records = res.json<unknown[]>();
      expect(records.length).toBeGreaterThan(0);
      for (const r of records) expect(invalid(d.recordSchema, r)).toBeNull();
      expect((await t.get(path(query(-1, 'ANY')), TEST_TOKEN)).text).toBe(res.text);
      const none = await t.get(path(query(-1, 'MOCK204')), TEST_TOKEN);
      expect([none.status, none.cost]).toEqual([204, 0]);
    });

    it('shows a point’s values on its trace page and provenance to the buyer only', async () => {
      const buyer = await t.account({ credits: 100, password: PASSWORD });
      const stranger = await t.account({ credits: 100, password: PASSWORD });
      const records = (await t.get(path(query(WITH_DATA)), buyer.key)).json<
        Array<{ traceability_source_url: string; value: unknown }>
      >();
      const sessions = new Map<TestAccount, ConsoleClient>();
      for (const a of [buyer, stranger]) {
        const client = new ConsoleClient(t.url);
        expect((await client.signIn(a.email, PASSWORD)).status).toBe(303);
        sessions.set(a, client);
      }
      for (const record of records) {
        const id = traceIdOf(record.traceability_source_url);
        expect(record.traceability_source_url).toBe(`${t.config.publicUrl}/trace/${id}`);
        const pages = new Map<TestAccount, string>();
        for (const a of [buyer, stranger]) {
          const bought = a === buyer;
          const provenance = await t.get(`/api/v1/trace/${id}`, a.key);
          expect([provenance.status, provenance.cost], id).toEqual([200, 0]);
          const body = provenance.json<{ values_included: boolean; values: unknown }>();
          expect([body.values_included, body.values === null], `${id} bought: ${bought}`).toEqual([bought, !bought]);
          if (d.provenanceSchema !== undefined) expect(invalid(d.provenanceSchema, body)).toBeNull();
          const bySession = await sessions.get(a)?.get(`/trace/${id}`, { accept: 'application/json' });
          expect(bySession?.text).toBe(provenance.text);
          const page = await sessions.get(a)?.get(`/trace/${id}`);
          expect([page?.status, page?.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
          pages.set(a, page?.text ?? '');
        }
        // The same point, shown with and without its value (as the page prints numbers: 1,234,567).
        const shown = Number(record.value).toLocaleString('en-US', { maximumFractionDigits: 20 });
        expect(pages.get(buyer)).toContain(shown);
        expect(pages.get(stranger)).not.toContain(shown);
        const anonymous = await t.get(`/trace/${id}`, null, { accept: 'text/html' });
        expect(anonymous.status).toBe(200);
        expect(anonymous.text).not.toBe(pages.get(buyer));
      }
      expect((await t.get('/api/v1/trace/41000000-0000-4000-8000-00000000dead', buyer.key)).status).toBe(404);
    });

    it('is described in the OpenAPI document: its path, periods, history and batch', async () => {
      const doc = (await t.get('/api/v1/openapi.json')).json<{
        paths: Record<string, Record<string, { operationId?: string; tags?: string[]; responses: Record<string, unknown> }>>;
      }>();
      const get = doc.paths[d.route.path]?.get;
      expect(get?.operationId).toBe(d.route.operationId);
      expect(get?.tags).toEqual([d.route.tag]);
      expect(JSON.stringify(get?.responses['200'])).toContain(`#/components/schemas/${d.recordSchema.title}`);
      expect(JSON.stringify(get?.responses['403'])).toContain(d.subscription);
      expect(Object.keys(get?.responses ?? {})).toEqual(
        expect.arrayContaining(['200', '204', '400', '401', '402', '403', '404']),
      );
      expect(doc.paths[`${d.route.path}/periods`]?.get?.operationId).toBe(d.route.periodsOperationId);
      expect(doc.paths[`${d.route.path}/history`]?.get).toBeDefined();
      expect(doc.paths[`${d.route.path}/batch`]?.post).toBeDefined();
    });

    // A dataset made of others' figures has no bundle file of its own: this one is not registered for it.
    const example = d.example;
    if (example !== undefined)
      it(`refuses bad rows of ${example.file} as file:line, changing nothing`, async () => {
        const dir = mkdtempSync(join(tmpdir(), 'corpdata-contract-bad-'));
        try {
          writeBundle(dir);
          const file = join(dir, example.file);
          const [header = '', ...rows] = readFileSync(file, 'utf8').trimEnd().split('\n');
          const mine = rows.find((r) => r.endsWith(Object.values(example.row).join(','))) ?? '';
          const next = rows.length + 2;
          /** The import's messages for the bundle with `lines` after the file's valid rows (or with `whole` as the file). */
          const refusal = async (lines: string[], whole?: string): Promise<string[]> => {
            writeFileSync(file, whole ?? `${[header, ...rows, ...lines].join('\n')}\n`);
            const error = await importBundle(t.db.kysely, dir, BUNDLES).then(
              () => undefined,
              (e: unknown) => e,
            );
            expect(error).toBeInstanceOf(ImportError);
            return (error as ImportError).message.split('\n');
          };
          const caller = await t.account();
          const before = await t.get(path(query(WITH_DATA)), caller.key);
          const unknownDocument = '41000000-0000-4000-8000-0000000000ff';
          expect(await refusal([mine.replace(COMPANY.id, 'not-a-company')])).toEqual([
            expect.stringMatching(new RegExp(`^${example.file}:${next}: company_id "not-a-company" `)),
          ]);
          expect(await refusal([mine.replace(documentId(WITH_DATA, example.documentKind), unknownDocument)])).toEqual([
            expect.stringMatching(new RegExp(`^${example.file}:${next}: document_id ${unknownDocument} `)),
          ]);
          expect(await refusal([mine])).toEqual([
            expect.stringMatching(new RegExp(`^${example.file}:${next}: duplicate figure`)),
          ]);
          // A header without a required column names the file and its first line.
          expect((await refusal([], `${header.replace('document_id,', '')}\n`)).join('\n')).toMatch(
            new RegExp(`^${example.file}:1: [^\\n]*document_id`),
          );
          // Nothing changed: the same answer, and its repeat price.
          const after = await t.get(path(query(WITH_DATA)), caller.key);
          expect([after.text, after.cost]).toEqual([before.text, repeat]);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      });
  });
});
