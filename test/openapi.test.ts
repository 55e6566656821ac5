import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIC_CODES } from '../src/catalog/mic-codes.js';
import { CURRENCIES } from '../src/revenues/currencies.js';
import { dialects } from './support/dialects.js';
import { startApp, type TestApp } from './support/test-app.js';

type Doc = {
  openapi: string;
  info: { version: string };
  paths: Record<
    string,
    Record<
      string,
      {
        operationId?: string;
        parameters?: Array<{ name: string; required?: boolean; schema: Record<string, unknown> }>;
        responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, unknown> }>;
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
    expect(Object.keys(op?.responses ?? {}).sort()).toEqual(['200', '204', '400', '401', '402', '403', '404', '500']);
    for (const status of ['200', '204', '402', '403']) {
      expect(Object.keys(op?.responses[status]?.headers ?? {}).sort(), status).toEqual(['X-Credit-Balance', 'X-Credit-Cost']);
    }
    const params = Object.fromEntries((op?.parameters ?? []).map((p) => [p.name, p]));
    expect(Object.keys(params).sort()).toEqual(['company_id', 'isin', 'lei', 'mic_code', 'reporting_period', 'ticker']);
    expect(params.reporting_period?.required).toBe(true);
    expect(JSON.stringify(params.mic_code?.schema)).toContain('"XNYS"');
    expect(MIC_CODES.every((m) => JSON.stringify(params.mic_code?.schema).includes(`"${m}"`))).toBe(true);
    const body = JSON.stringify(op?.responses['200']?.content);
    expect(CURRENCIES.every((c) => body.includes(`"${c}"`))).toBe(true);
  });

  it('documents the company endpoints and the datasets', () => {
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/api/v1/companies/list',
      '/api/v1/companies/search',
      '/api/v1/ghg-emissions',
      '/api/v1/ghg-intensity',
      '/api/v1/revenues',
    ]);
  });

  it.each([
    ['/api/v1/ghg-emissions', 'getGhgEmissions', ['scope', 'tCO2e', 'year_of_disclosure']],
    ['/api/v1/ghg-intensity', 'getGhgIntensity', ['emissions_document_id', 'revenue_document_id', 'tCO2e/USD million']],
  ])('describes %s like /revenues: parameters, every status, credit headers, its records', (path, operationId, fields) => {
    const op = doc.paths[path]?.get;
    const revenues = doc.paths['/api/v1/revenues']?.get;
    expect(op?.operationId).toBe(operationId);
    expect(Object.keys(op?.responses ?? {}).sort()).toEqual(['200', '204', '400', '401', '402', '403', '404', '500']);
    for (const status of ['200', '204', '402', '403']) {
      expect(Object.keys(op?.responses[status]?.headers ?? {}).sort(), status).toEqual(['X-Credit-Balance', 'X-Credit-Cost']);
    }
    expect(op?.parameters).toEqual(revenues?.parameters);
    const body = JSON.stringify(op?.responses['200']?.content);
    for (const field of fields) expect(body).toContain(`"${field}"`);
  });

  it('renders the reference page from the same document', async () => {
    const page = await t.get('/docs');
    expect(page.text).toContain('getRevenues');
    expect(page.text).toContain('reporting_period');
  });
});
