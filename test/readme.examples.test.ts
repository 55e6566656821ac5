import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_TOKEN } from '../src/auth/test-token.js';
import { dialects } from './support/dialects.js';
import { startApp, type TestApp } from './support/test-app.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const README = readFileSync(`${ROOT}README.md`, 'utf8');
const README_URL = 'http://localhost:8080';

/** The fenced block after `<!-- first-call: NAME -->` in the README. */
function example(name: string): string {
  const match = new RegExp(`<!-- first-call: ${name} -->\\n\`\`\`[a-z]*\\n([\\s\\S]*?)\\n\`\`\``).exec(README);
  if (match?.[1] === undefined) throw new Error(`README has no first-call example for ${name}`);
  return match[1];
}

function run(
  file: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : Number(error.code ?? 1), stdout, stderr }),
    );
  });
}

/** Every example prints the cost, the balance, then one line per record. */
function expectMockAnswer(lines: string[], baseUrl: string): void {
  expect(lines[0]).toBe('cost 0 balance 0');
  expect(lines.length).toBeGreaterThan(1);
  for (const line of lines.slice(1)) expect(line).toMatch(new RegExp(`^2025 [0-9]+ USD ${baseUrl}/trace/mock-[0-9a-f-]{36}$`));
}

/** The examples ask for Apple, whose latest figure in the demo is its fiscal 2025. */
const TICKER = 'AAPL';

/** The example asking for another ticker: the test token's MOCK tickers answer 204, 403, 404. */
function forTicker(code: string, ticker: string): string {
  const changed = code
    .replaceAll(`ticker=${TICKER}&`, `ticker=${ticker}&`)
    .replaceAll(`ticker: '${TICKER}'`, `ticker: '${ticker}'`);
  expect(changed).not.toBe(code);
  return changed;
}

/** What every example prints for a 204 and for refusals (status and the problem's detail). */
const OTHER_ANSWERS: Array<[string, string[]]> = [
  ['MOCK204', ['cost 0 balance 0', 'no figure for this period']],
  ['MOCK403', ['403 Subscription required: this dataset needs the revenues subscription.']],
  ['MOCK404', ['404 No company matches the given ticker.']],
];

describe.each(dialects())("the README's first call, run against a live server (%s)", (dialect) => {
  let t: TestApp;
  let env: Record<string, string>;
  beforeAll(async () => {
    t = await startApp(dialect, { env: { CORPDATA_PUBLIC_URL: '' } });
    env = { CORPDATA_KEY: TEST_TOKEN };
  });
  afterAll(() => t.close());
  const live = (code: string) => code.replaceAll(README_URL, t.url);
  /** Links name the server's own address: http://localhost and the port it listens on. */
  const linkBase = () => `http://localhost:${new URL(t.url).port}`;

  it('in curl', async () => {
    const { code, stdout, stderr } = await run('sh', ['-c', live(example('curl'))], env);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const records = JSON.parse(stdout) as Array<{ reporting_period: number; traceability_source_url: string }>;
    expect(records[0]?.reporting_period).toBe(2025);
    expect(records[0]?.traceability_source_url.startsWith(`${linkBase()}/trace/`)).toBe(true);
    // A refusal comes as problem details.
    const refused = await run('sh', ['-c', live(forTicker(example('curl'), 'MOCK403'))], env);
    expect(JSON.parse(refused.stdout)).toMatchObject({ status: 403, required_subscription: 'revenues' });
  });

  it('in Python, standard library only', async () => {
    const python = async (code: string) => {
      const { code: exit, stdout, stderr } = await run('python3', ['-I', '-c', live(code)], env);
      expect(stderr).toBe('');
      expect(exit).toBe(0);
      return stdout.trim().split('\n');
    };
    expectMockAnswer(await python(example('python')), linkBase());
    for (const [ticker, lines] of OTHER_ANSWERS)
      expect(await python(forTicker(example('python'), ticker)), ticker).toEqual(lines);
  });

  it('in TypeScript, with the typed client, saved as first-call.ts and run by `npx tsx first-call.ts`', {
    timeout: 120_000,
  }, async () => {
    // Four runs of tsx, each starting a Node process and compiling the client: seconds each on a loaded machine.
    // As the README says: the file at the repository root (a scratch copy of it: the client and
    // the dependencies), run by the runner the project installs.
    expect(README.replace(/\s+/g, ' ')).toContain('run it with `npx tsx first-call.ts`');
    const scratch = mkdtempSync(join(tmpdir(), 'corpdata-first-call-'));
    for (const name of ['clients', 'node_modules', 'package.json']) symlinkSync(join(ROOT, name), join(scratch, name));
    const typescript = async (code: string) => {
      writeFileSync(join(scratch, 'first-call.ts'), live(code));
      const { code: exit, stdout, stderr } = await run('sh', ['-c', `cd ${scratch} && npx tsx first-call.ts`], env);
      expect(stderr).toBe('');
      expect(exit).toBe(0);
      return stdout.trim().split('\n');
    };
    try {
      expectMockAnswer(await typescript(example('typescript')), linkBase());
      for (const [ticker, lines] of OTHER_ANSWERS)
        expect(await typescript(forTicker(example('typescript'), ticker)), ticker).toEqual(lines);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
