import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient as generateHeyApiClient } from '@hey-api/openapi-ts';
import openapiTS, { astToString } from 'openapi-typescript';
import { generate as generateOrvalClient } from 'orval';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_TOKEN } from '../src/auth/test-token.js';
import type { Problem } from '../src/http/problem.js';
import { dialects } from './support/dialects.js';
import { startApp, type TestApp } from './support/test-app.js';

/*
 * Clients generated from the served OpenAPI document by three common generators, each asking for
 * problem details (Accept: application/problem+json): every refusal must reach the program as a
 * parsed object holding the problem details, never as a JSON parse error, and a 204 as no data.
 * Each client is generated into a temporary directory from the live server's document, compiled
 * with tsc under strict, and run with node.
 */

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const TSC = join(ROOT, 'node_modules/.bin/tsc');

function run(file: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(file, args, { cwd, env: { PATH: process.env.PATH ?? '', ...env }, timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : Number(error.code ?? 1), stdout, stderr }),
    );
  });
}

/** Calls every script makes: each answers `{ status, body }`, body being what the client handed the program. */
const CASES = `
type Call = (key: string, ticker: string, period: number) => Promise<{ status: number; body: unknown }>;
export async function cases(call: Call): Promise<Record<string, { status: number; body: unknown }>> {
  const token = process.env.CORPDATA_TEST_TOKEN ?? '';
  const results: Record<string, { status: number; body: unknown }> = {};
  const tries: Array<[string, string, string, number]> = [
    ['400', token, 'MOCK403', 1999],
    ['401', 'not.a.key', 'BETA', -1],
    ['402', token, 'MOCK402', -1],
    ['403', token, 'MOCK403', -1],
    ['404', token, 'MOCK404', -1],
    ['404 period', process.env.CORPDATA_KEY ?? '', 'BETA', 2020],
    ['204', token, 'MOCK204', -1],
    ['200', token, 'ANY', -1],
  ];
  for (const [name, key, ticker, period] of tries) {
    try {
      results[name] = await call(key, ticker, period);
    } catch (error) {
      results[name] = { status: -1, body: String(error) };
    }
  }
  return results;
}
`;

const ACCEPT = 'application/problem+json';

const SCRIPTS: Record<string, string> = {
  'openapi-fetch': `
import createClient from 'openapi-fetch';
import type { paths } from './openapi-typescript/schema.js';
import { cases } from './cases.js';

const results = await cases(async (key, ticker, period) => {
  const api = createClient<paths>({ baseUrl: process.env.CORPDATA_URL ?? '', headers: { authorization: \`Bearer \${key}\`, accept: '${ACCEPT}' } });
  const { data, error, response } = await api.GET('/api/v1/revenues', { params: { query: { ticker, reporting_period: period } } });
  return { status: response.status, body: response.ok ? (data ?? null) : error };
});
console.log(JSON.stringify(results));
`,
  'hey-api': `
import { createClient, createConfig } from './hey-api/client/index.js';
import { getRevenues } from './hey-api/sdk.gen.js';
import { cases } from './cases.js';

const results = await cases(async (key, ticker, period) => {
  const client = createClient(createConfig({ baseUrl: process.env.CORPDATA_URL ?? '', headers: { authorization: \`Bearer \${key}\`, accept: '${ACCEPT}' } }));
  const { data, error, response } = await getRevenues({ client, query: { ticker, reporting_period: period } });
  return { status: response.status, body: response.ok ? (data ?? null) : error };
});
console.log(JSON.stringify(results));
`,
  orval: `
import { getRevenues } from './orval/api.js';
import { cases } from './cases.js';

const results = await cases(async (key, ticker, period) => {
  const { data, status } = await getRevenues({ ticker, reporting_period: period }, { headers: { authorization: \`Bearer \${key}\`, accept: '${ACCEPT}' } });
  return { status, body: data };
});
// Without the Accept header a refusal is plain text, which orval's fetch client hands to JSON.parse.
let plain = 'no error';
try {
  await getRevenues({ ticker: 'MOCK404', reporting_period: -1 }, { headers: { authorization: \`Bearer \${process.env.CORPDATA_TEST_TOKEN ?? ''}\` } });
} catch (error) {
  plain = String(error);
}
console.log(JSON.stringify({ ...results, plain: { status: 0, body: plain } }));
`,
};

type Results = Record<string, { status: number; body: unknown }>;

describe('clients generated from the served document, asking for problem details', () => {
  let t: TestApp;
  let dir: string;
  let key: string;
  const results: Record<string, Results> = {};

  beforeAll(async () => {
    t = await startApp(dialects()[0] ?? 'sqlite');
    key = (await t.account()).key;
    dir = mkdtempSync(join(tmpdir(), 'corpdata-generated-clients-'));
    const document = (await t.get('/api/v1/openapi.json')).json<Record<string, unknown>>();
    const documentFile = join(dir, 'openapi.json');
    writeFileSync(documentFile, JSON.stringify(document));

    mkdirSync(join(dir, 'openapi-typescript'));
    writeFileSync(join(dir, 'openapi-typescript/schema.d.ts'), astToString(await openapiTS(document as never)));
    await generateHeyApiClient({
      input: documentFile,
      output: { path: join(dir, 'hey-api') },
      plugins: ['@hey-api/client-fetch', '@hey-api/sdk', '@hey-api/typescript'],
      logs: { level: 'silent' },
    });
    await generateOrvalClient({
      input: { target: documentFile },
      output: { target: join(dir, 'orval/api.ts'), client: 'fetch', mode: 'single', baseUrl: t.url, prettier: false },
    });

    writeFileSync(join(dir, 'cases.ts'), CASES);
    for (const [name, script] of Object.entries(SCRIPTS)) writeFileSync(join(dir, `${name}.ts`), script);
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'generated-clients', private: true, type: 'module' }));
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2023',
          lib: ['ES2023', 'DOM'],
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          skipLibCheck: true,
          types: ['node'],
          outDir: 'dist',
        },
        include: ['*.ts', 'openapi-typescript', 'hey-api', 'orval'],
      }),
    );
    // openapi-fetch and @types/node come from the repository's node_modules.
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    const tsc = await run(TSC, ['-p', 'tsconfig.json'], dir);
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.code).toBe(0);

    for (const name of Object.keys(SCRIPTS)) {
      const out = await run('node', [`dist/${name}.js`], dir, {
        CORPDATA_URL: t.url,
        CORPDATA_TEST_TOKEN: TEST_TOKEN,
        CORPDATA_KEY: key,
      });
      expect(out.stderr, name).toBe('');
      results[name] = JSON.parse(out.stdout) as Results;
    }
  }, 180_000);

  afterAll(async () => {
    await t.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  describe.each(Object.keys(SCRIPTS))('%s', (name) => {
    const answer = (which: string) => {
      const result = results[name]?.[which];
      if (result === undefined) throw new Error(`${name} made no ${which} call`);
      return result;
    };
    const problem = (which: string, status: number): Problem => {
      const { status: got, body } = answer(which);
      expect(got, `${which}: ${JSON.stringify(body)}`).toBe(status);
      expect(body).toMatchObject({ status, type: `/docs#error-${status}` });
      const details = body as Problem;
      expect(details.instance).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
      expect(typeof details.title).toBe('string');
      expect(typeof details.detail).toBe('string');
      return details;
    };

    it('hands every refusal to the program as problem details, not a parse error', () => {
      expect(problem('400', 400).param).toBe('reporting_period');
      expect(problem('401', 401).title).toBeTruthy();
      expect(problem('402', 402).detail).toMatch(/^Insufficient credits/);
      expect(problem('403', 403).required_subscription).toBe('revenues');
      expect(problem('404', 404).did_you_mean).toEqual([]);
      expect(problem('404 period', 404).available_periods).toEqual([2024, 2023, 2022]);
    });

    it('answers a 204 without a body and a 200 with records', () => {
      expect(answer('204').status).toBe(204);
      expect(answer('200').status).toBe(200);
      expect((answer('200').body as unknown[]).length).toBeGreaterThan(0);
    });
  });

  it("shows why the Accept header matters: orval's fetch client cannot read a plain-text refusal", () => {
    expect(results.orval?.plain?.body).toMatch(/^SyntaxError/);
  });
});
