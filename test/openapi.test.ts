import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIC_CODES } from '../src/catalog/mic-codes.js';
import { CURRENCIES } from '../src/money/currencies.js';
import { DATASETS } from './support/datasets.js';
import { dialects } from './support/dialects.js';
import { startApp, type TestApp } from './support/test-app.js';

/** The schemas every document names, whatever the datasets, and each dataset's record and provenance. */
const SCHEMAS = [
  ...new Set([
    'Account',
    'AvailablePeriods',
    'CompanyRecord',
    'Event',
    'EventPage',
    'Problem',
    'SourceStatus',
    'Status',
    ...DATASETS.flatMap((d) => [d.recordSchema.title, d.provenanceSchema?.title].filter((t) => t !== undefined)),
  ]),
].sort();

const REDOCLY = fileURLToPath(new URL('../node_modules/.bin/redocly', import.meta.url));

type Doc = {
  openapi: string;
  info: { version: string; license?: { name: string }; contact?: object };
  components: { schemas: Record<string, object> };
  paths: Record<
    string,
    Record<
      string,
      {
        operationId?: string;
        parameters?: Array<{ name: string; required?: boolean; schema: Record<string, unknown> }>;
        responses: Record<
          string,
          { headers?: Record<string, { required?: boolean }>; content?: Record<string, { example?: unknown }> }
        >;
      }
    >
  >;
};

describe.each(dialects())('OpenAPI document (%s)', (dialect) => {
  let t: TestApp;
  let doc: Doc;
  beforeAll(async () => {
    t = await startApp(dialect);
    doc = (await t.get('/api/v1/openapi.json')).json<Doc>();
  });
  afterAll(() => t.close());

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
  });

  it('declares the spec: version, operationId, every status and credit header of the revenues endpoint', () => {
    expect(doc.info.version).toBe('1.0.0');
    const op = doc.paths['/api/v1/revenues']?.get;
    expect(op?.operationId).toBe('getRevenues');
    expect(Object.keys(op?.responses ?? {}).sort()).toEqual(['200', '204', '400', '401', '402', '403', '404', '429', '500']);
    for (const status of ['200', '204', '402', '403']) {
      const headers = op?.responses[status]?.headers ?? {};
      for (const name of ['X-Credit-Balance', 'X-Credit-Cost', 'X-Request-Id'])
        expect(headers[name]?.required, `${status} ${name}`).toBe(true);
    }
    const params = Object.fromEntries((op?.parameters ?? []).map((p) => [p.name, p]));
    expect(Object.keys(params).sort()).toEqual(['company_id', 'isin', 'lei', 'mic_code', 'reporting_period', 'ticker']);
    expect(params.reporting_period?.required).toBe(true);
    // mic_code is one enum, so generated clients get one string-union type
    expect(params.mic_code?.schema.enum).toEqual([...MIC_CODES]);
    expect(params.mic_code?.schema.anyOf).toBeUndefined();
    // and the company record's mic_code is the same enum
    const company = doc.components.schemas.CompanyRecord as { properties: Record<string, { enum?: unknown }> };
    expect(company.properties.mic_code?.enum).toEqual([...MIC_CODES]);
    const body = JSON.stringify(doc.components.schemas.RevenueRecord);
    expect(CURRENCIES.every((c) => body.includes(`"${c}"`))).toBe(true);
  });

  it('gives each operation a 400 example about a parameter it takes (or names the one it does not)', () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      const operation = (item.get ?? item.post) as unknown as {
        parameters?: Array<{ name: string }>;
        responses: Record<string, unknown>;
      };
      const takes = new Set((operation.parameters ?? []).map((p) => p.name));
      const examples = JSON.stringify(operation.responses['400'] ?? {});
      for (const [, name] of examples.matchAll(/Invalid parameter '([a-z_]+)'/g))
        expect(takes.has(name ?? ''), `${path}: ${name}`).toBe(true);
    }
  });

  it('names its schemas once in components and refers to them', () => {
    expect(Object.keys(doc.components.schemas).sort()).toEqual(SCHEMAS);
    const json = (path: string) => JSON.stringify(doc.paths[path]?.get?.responses['200']?.content?.['application/json']);
    for (const d of DATASETS) expect(json(d.route.path)).toContain(`"$ref":"#/components/schemas/${d.recordSchema.title}"`);
    expect(json('/api/v1/companies/search')).toContain('"$ref":"#/components/schemas/CompanyRecord"');
    expect(json('/api/v1/companies/list')).toContain('"$ref":"#/components/schemas/CompanyRecord"');
    expect(json('/api/v1/account')).toContain('"$ref":"#/components/schemas/Account"');
    for (const d of DATASETS) expect(json(`${d.route.path}/periods`)).toContain('"$ref":"#/components/schemas/AvailablePeriods"');
    for (const d of DATASETS) {
      if (d.provenanceSchema !== undefined)
        expect(json('/api/v1/trace/{id}')).toContain(`"$ref":"#/components/schemas/${d.provenanceSchema.title}"`);
    }
    // Named once: no path carries a named schema inline.
    const paths = JSON.stringify(doc.paths);
    for (const name of SCHEMAS) expect(paths, name).not.toContain(`"title":"${name}"`);
  });

  it('documents the headers: X-Request-Id everywhere, WWW-Authenticate, Retry-After, ETag, RateLimit', () => {
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const op of Object.values(methods)) {
        for (const [status, response] of Object.entries(op.responses)) {
          expect(response.headers?.['X-Request-Id']?.required, `${path} ${status}`).toBe(true);
          // Rate limiting is on in the test app, so its headers are on every answer: required.
          expect(response.headers?.RateLimit?.required, `${path} ${status}`).toBe(true);
          expect(response.headers?.['RateLimit-Policy']?.required, `${path} ${status}`).toBe(true);
          for (const media of Object.values(response.content ?? {})) expect(media.example, `${path} ${status}`).toBeDefined();
        }
        // Every operation takes a key but the status, which is public.
        if (path !== '/api/v1/status') expect(op.responses['401']?.headers?.['WWW-Authenticate']?.required).toBe(true);
        expect(op.responses['429']?.headers?.['Retry-After']?.required).toBe(true);
      }
    }
    expect(doc.paths['/api/v1/companies/list']?.get?.responses['200']?.headers?.ETag?.required).toBe(true);
    expect(doc.paths['/api/v1/companies/list']?.get?.responses['304']?.headers?.ETag?.required).toBe(true);
    expect(doc.info.license?.name).toBeTruthy();
    expect(doc.info.contact).toBeDefined();
  });

  it('documents every API endpoint', () => {
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        '/api/v1/account',
        '/api/v1/companies/list',
        '/api/v1/companies/resolve',
        '/api/v1/companies/search',
        '/api/v1/fundamentals',
        '/api/v1/events',
        '/api/v1/status',
        '/api/v1/trace/{id}',
        ...DATASETS.flatMap((d) => ['', '/batch', '/history', '/periods'].map((tail) => `${d.route.path}${tail}`)),
      ].sort(),
    );
  });

  it('describes the statement call with an item per statement dataset, each of its record schema', () => {
    const op = doc.paths['/api/v1/fundamentals']?.get;
    expect(op?.operationId).toBe('getFundamentals');
    expect(Object.keys(op?.responses ?? {}).sort()).toEqual(['200', '400', '401', '402', '403', '404', '429', '500']);
    expect(op?.responses['200']?.headers?.['X-Credit-Cost']).toBeDefined();
    const media = op?.responses['200']?.content?.['application/json'] as { schema?: unknown } | undefined;
    const schema = media?.schema as
      | { properties: { items: { properties: Record<string, { items?: { $ref?: string } }> } } }
      | undefined;
    const items = DATASETS.filter((d) => d.statementItem === true);
    expect(items.map((d) => d.name)).toEqual(expect.arrayContaining(['revenues', 'net-income']));
    // Every statement dataset and nothing else, each an array of its own record.
    expect(Object.entries(schema?.properties.items.properties ?? {}).map(([name, item]) => [name, item.items?.$ref])).toEqual(
      items.map((d) => [d.name, `#/components/schemas/${d.recordSchema.title}`]),
    );
  });

  it.each(DATASETS)(
    'describes $name like /revenues: parameters, every status, credit headers, its records',
    ({ route, recordSchema }) => {
      const op = doc.paths[route.path]?.get;
      const revenues = doc.paths['/api/v1/revenues']?.get;
      expect(op?.operationId).toBe(route.operationId);
      expect(Object.keys(op?.responses ?? {}).sort()).toEqual(Object.keys(revenues?.responses ?? {}).sort());
      for (const status of ['200', '204', '402', '403']) {
        expect(Object.keys(op?.responses[status]?.headers ?? {}).sort(), status).toEqual(
          Object.keys(revenues?.responses[status]?.headers ?? {}).sort(),
        );
        expect(op?.responses[status]?.headers?.['X-Credit-Cost'], status).toBeDefined();
      }
      // The same parameters; only reporting_period's rule names the dataset's own history call for earlier years.
      const own = (parameters: unknown, path: string) => JSON.stringify(parameters).replaceAll(path, '{dataset}');
      expect(own(op?.parameters, route.path)).toEqual(own(revenues?.parameters, '/api/v1/revenues'));
      expect(JSON.stringify(op?.parameters)).toContain(`earlier years: GET ${route.path}/history?from=2000`);
      const record = doc.components.schemas[recordSchema.title ?? ''] as { properties?: Record<string, unknown> } | undefined;
      expect(Object.keys(record?.properties ?? {}).sort()).toEqual(Object.keys(recordSchema.properties ?? {}).sort());
    },
  );

  it('renders the reference page from the same document', async () => {
    const page = await t.get('/docs');
    expect(page.text).toContain('getRevenues');
    expect(page.text).toContain('reporting_period');
  });
});

describe('OpenAPI document, linted', () => {
  let t: TestApp;
  let byDefault: TestApp;
  let dir: string;
  beforeAll(async () => {
    t = await startApp(dialects()[0] ?? 'sqlite');
    // As served with no CORPDATA_PUBLIC_URL, its server entry then derived from the bound port.
    byDefault = await startApp(dialects()[0] ?? 'sqlite', { env: { CORPDATA_PUBLIC_URL: '' } });
    dir = mkdtempSync(join(tmpdir(), 'corpdata-openapi-'));
  });
  afterAll(async () => {
    await t.close();
    await byDefault.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("has 0 errors and 0 warnings under Redocly's recommended-strict rules, with and without CORPDATA_PUBLIC_URL", async () => {
    for (const [name, app] of [
      ['public-url', t],
      ['default', byDefault],
    ] as const) {
      const file = join(dir, `${name}.json`);
      writeFileSync(file, (await app.get('/api/v1/openapi.json')).text);
      const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        execFile(
          REDOCLY,
          ['lint', '--extends', 'recommended-strict', '--format', 'json', file],
          // Offline: no telemetry, no update check.
          { env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' }, timeout: 120_000 },
          (error, out, err) => resolve({ code: error === null ? 0 : (error.code as number | null), stdout: out, stderr: err }),
        );
      });
      const problems = (JSON.parse(stdout) as { problems: Array<{ ruleId: string; message: string }> }).problems;
      expect(problems.map((p) => `${name}: ${p.ruleId}: ${p.message}`)).toEqual([]);
      expect(code, stderr).toBe(0);
    }
  }, 250_000);
});
