import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_TOKEN } from '../src/auth/test-token.js';
import { dialects } from './support/dialects.js';
import { startApp, type TestApp } from './support/test-app.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const CLIENT_DIR = join(ROOT, 'clients/typescript');
const TSC = join(ROOT, 'node_modules/.bin/tsc');

function run(file: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(file, args, { cwd, env: { ...process.env, ...env }, timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : Number(error.code ?? 1), stdout, stderr }),
    );
  });
}

/** `npm pack` of a built directory into `dir` (no scripts run): the tarball's file name. */
async function pack(source: string, dir: string): Promise<string> {
  const packed = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], source);
  expect(packed.code, packed.stderr).toBe(0);
  const [tarball] = JSON.parse(packed.stdout) as Array<{ filename: string }>;
  if (tarball === undefined) throw new Error(`npm pack gave no tarball: ${packed.stdout}`);
  return tarball.filename;
}

const EXAMPLE = `import { CorpdataError, createCorpdataClient } from '@corpdata/client';

const corpdata = createCorpdataClient({ baseUrl: process.env.CORPDATA_URL, apiKey: process.env.CORPDATA_KEY });
const { data, credits, noData, testMode } = await corpdata.revenues({ ticker: 'ANY', reporting_period: -1 });
console.log('records', data.length, 'cost', credits.cost, 'noData', noData, 'testMode', testMode);
console.log('MOCK204 noData', (await corpdata.dataset('ghg-emissions', { ticker: 'MOCK204', reporting_period: -1 })).noData);
try {
  await corpdata.ghgIntensity({ ticker: 'MOCK403', reporting_period: -1 });
} catch (error) {
  if (!(error instanceof CorpdataError)) throw error;
  console.log(error.kind, error.status, error.requiredSubscription);
}
`;

/** A TypeScript program using the package: its types come from the tarball's declarations. */
const TYPED = `import { CorpdataError, createCorpdataClient, DATASET_NAMES, type Dataset, type GhgEmissionRecord } from '@corpdata/client';

const corpdata = createCorpdataClient({ baseUrl: 'http://localhost:8080', apiKey: 'key', timeout: 5000 });
const names: readonly Dataset[] = DATASET_NAMES;
export async function emissions(): Promise<GhgEmissionRecord[]> {
  const answer = await corpdata.dataset('ghg-emissions', { ticker: 'BETA', reporting_period: -1 });
  return answer.noData ? [] : answer.data;
}
export function describe(error: unknown): string {
  return error instanceof CorpdataError ? \`\${error.kind} \${error.requiredSubscription ?? ''} \${names.length}\` : 'other';
}
`;

describe('the TypeScript client as a package', () => {
  let t: TestApp;
  let scratch: string;
  beforeAll(async () => {
    t = await startApp(dialects()[0] ?? 'sqlite');
    scratch = mkdtempSync(join(tmpdir(), 'corpdata-client-package-'));
  });
  afterAll(async () => {
    await t.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('builds and packs, installs without the network, runs from node, and type-checks a program using it', async () => {
    const build = await run('npm', ['run', 'build'], CLIENT_DIR);
    expect(build.code, build.stdout + build.stderr).toBe(0);
    const client = await pack(CLIENT_DIR, scratch);
    // Its one dependency (and that one's) are packed from the repository's node_modules, so the
    // install needs no registry.
    const fetchTarball = await pack(join(ROOT, 'node_modules/openapi-fetch'), scratch);
    const helpersTarball = await pack(join(ROOT, 'node_modules/openapi-typescript-helpers'), scratch);
    writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
    const install = await run(
      'npm',
      ['install', `./${client}`, `./${fetchTarball}`, `./${helpersTarball}`, '--offline', '--no-audit', '--no-fund'],
      scratch,
    );
    expect(install.code, install.stderr).toBe(0);

    writeFileSync(join(scratch, 'example.mjs'), EXAMPLE);
    const example = await run('node', ['example.mjs'], scratch, { CORPDATA_URL: t.url, CORPDATA_KEY: TEST_TOKEN });
    expect(example.stderr).toBe('');
    expect(example.stdout.trim().split('\n')).toEqual([
      expect.stringMatching(/^records [1-9][0-9]* cost 0 noData false testMode true$/),
      'MOCK204 noData true',
      'subscription_required 403 ghg',
    ]);

    writeFileSync(join(scratch, 'typed.ts'), TYPED);
    const tsc = await run(
      TSC,
      [
        '--noEmit',
        '--strict',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--lib',
        'es2023,dom',
        '--target',
        'es2023',
        'typed.ts',
      ],
      scratch,
    );
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.code).toBe(0);
  }, 120_000);
});
