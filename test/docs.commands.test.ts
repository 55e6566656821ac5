/**
 * Every shell command in README.md and docs/*.md runs as written: a doc that fails as written fails
 * CI.
 *
 * What counts as a shell block: every indented code block (4 spaces, or 4 beyond the list item it
 * is in) and every fenced block labelled `sh`, `bash`, `shell`, `console` or nothing. Fenced blocks
 * in another language (```ts, ```python, ```json, ```text, ```ini) are not shell and are left alone.
 *
 * Each shell block is run unless the line before it (blank lines between allowed) is a marker:
 *
 *     <!-- not-run: REASON -->        a command that cannot run here: a systemd unit, a crontab line,
 *                                     a download from the internet, a measurement of minutes, a
 *                                     placeholder such as `postgres://…` (say which, and where it is
 *                                     run instead if it is)
 *     <!-- not-a-command: WHAT -->    not commands: a command's output, a file's content, a synopsis
 *                                     with placeholders, a code layout
 *     <!-- first-call: NAME -->       run here and by test/readme.examples.test.ts
 *
 * A marker without a reason, or an unknown marker, fails this test. Keep `not-run` for what truly
 * cannot run: anything that can, runs.
 *
 * How a doc's blocks run: in order, each `bash -e` in one scratch directory per doc that links the
 * repository's `bin`, `dist`, `node_modules`, `src`, `test`, `demo`, `clients`, `scripts` and
 * `package.json` and holds `data/corpdata.db`, the demo database (what the first `serve` makes), so
 * `bin/corpdata` finds the database the docs name. What a block exports is there for the next (the
 * README's `export CORPDATA_KEY=…`). When a doc's blocks call `http://localhost:8080`, a
 * `bin/corpdata serve` runs in the scratch directory on a free port, and `localhost:8080` in the
 * blocks is that port. A block whose last line ends in `bin/corpdata serve` is a server: the running
 * one is stopped first (SIGTERM, as the docs say), the block is started and must answer `/readyz`;
 * it then serves the blocks after it. Each other block must exit 0.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpdata, freePort } from './support/cli.js';
import { type DocBlock, docBlocks, isShellBlock } from './support/doc-blocks.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
].sort();
const LINKED = ['bin', 'dist', 'node_modules', 'src', 'test', 'demo', 'clients', 'scripts', 'package.json', 'tsconfig.json'];
const MARKERS = new Set(['not-run', 'not-a-command', 'first-call']);
const SERVES = /bin\/corpdata serve\s*(#.*)?$/;
const DOC_URL = 'localhost:8080';

const shellBlocks = (doc: string): DocBlock[] => docBlocks(readFileSync(join(ROOT, doc), 'utf8')).filter(isShellBlock);
const runs = (block: DocBlock): boolean => block.marker === null || block.marker.name === 'first-call';

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

function bash(script: string, cwd: string, env: Record<string, string>): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile('bash', ['-c', script], { cwd, env, timeout: 180_000, maxBuffer: 16 << 20 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr }),
    );
  });
}

/** Waits until the server on `port` is ready, or fails with what `child` wrote. */
async function ready(port: number, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the server did not start:\n${output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('the shell blocks of README.md and docs/*.md', () => {
  it('are each run, or marked with a known marker and a reason', () => {
    const problems: string[] = [];
    for (const doc of DOCS)
      for (const b of shellBlocks(doc)) {
        if (b.marker === null) continue;
        if (!MARKERS.has(b.marker.name)) problems.push(`${doc}:${b.line}: unknown marker <!-- ${b.marker.name} -->`);
        else if (b.marker.reason === '') problems.push(`${doc}:${b.line}: <!-- ${b.marker.name}: --> gives no reason`);
      }
    expect(problems).toEqual([]);
  });

  it('finds the blocks of lists, of fences and of indented text, with their markers', () => {
    const md = [
      'Text:',
      '',
      '    echo top',
      '',
      '1. **Step.** Do:',
      '',
      '       echo in-list',
      '',
      '   more text',
      '     continued',
      '',
      '<!-- not-run: a systemd unit -->',
      '```sh',
      'systemctl start x',
      '```',
      '',
      '```ts',
      'const x = 1;',
      '```',
    ].join('\n');
    expect(docBlocks(md)).toEqual([
      { line: 3, lang: null, text: 'echo top', marker: null },
      { line: 7, lang: null, text: 'echo in-list', marker: null },
      { line: 13, lang: 'sh', text: 'systemctl start x', marker: { name: 'not-run', reason: 'a systemd unit' } },
      { line: 17, lang: 'ts', text: 'const x = 1;', marker: null },
    ]);
    expect(
      docBlocks(md)
        .filter(isShellBlock)
        .map((b) => b.line),
    ).toEqual([3, 7, 13]);
  });
});

describe('the docs, run as written', () => {
  let template: string;
  beforeAll(async () => {
    // The demo database, made once: what `bin/corpdata serve` or `migrate` makes on a fresh checkout.
    template = mkdtempSync(join(tmpdir(), 'corpdata-docs-db-'));
    const made = await corpdata(['migrate'], { CORPDATA_DATABASE: `sqlite:${join(template, 'corpdata.db')}` });
    expect(made.code, made.stderr).toBe(0);
  }, 180_000);
  afterAll(() => rmSync(template, { recursive: true, force: true }));

  const docsToRun = DOCS.filter((doc) => shellBlocks(doc).some(runs));
  it('include every doc with commands', () => {
    expect(docsToRun).toEqual(expect.arrayContaining(['README.md', 'docs/deployment.md', 'docs/esef-ingest.md']));
  });

  it.each(docsToRun)('%s', { timeout: 900_000 }, async (doc) => {
    const blocks = shellBlocks(doc).filter(runs);
    const scratch = mkdtempSync(join(tmpdir(), 'corpdata-docs-'));
    for (const name of LINKED) symlinkSync(join(ROOT, name), join(scratch, name));
    mkdirSync(join(scratch, 'data'));
    copyFileSync(join(template, 'corpdata.db'), join(scratch, 'data', 'corpdata.db'));
    const state = join(scratch, '.doc-env');
    writeFileSync(state, '');
    const port = await freePort();
    const env = { PATH: process.env.PATH ?? '', HOME: scratch, PORT: String(port), LANG: 'C.UTF-8' };
    let server: { child: ChildProcess; output: () => string } | null = null;
    const start = async (script: string): Promise<void> => {
      const child = spawn('bash', ['-c', script], { cwd: scratch, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout?.on('data', (d) => {
        output += String(d);
      });
      child.stderr?.on('data', (d) => {
        output += String(d);
      });
      server = { child, output: () => output };
      await ready(port, child, server.output);
    };
    const stop = async (): Promise<void> => {
      const running = server;
      server = null;
      if (running === null || running.child.exitCode !== null || running.child.pid === undefined) return;
      const exited = new Promise((r) => running.child.once('exit', r));
      try {
        process.kill(-running.child.pid, 'SIGTERM');
      } catch (error) {
        // Its group is gone already: the server exited, and its exit event is on its way.
        if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
      }
      await exited;
    };
    try {
      if (blocks.some((b) => b.text.includes(DOC_URL) && !SERVES.test(b.text.trimEnd()))) await start('exec bin/corpdata serve');
      for (const block of blocks) {
        const text = block.text.replaceAll(DOC_URL, `localhost:${port}`);
        const where = `${doc}:${block.line}\n${block.text}`;
        if (SERVES.test(text.trimEnd())) {
          await stop();
          await start(`set -eo pipefail; source ${state}\n${text}`);
          continue;
        }
        const r = await bash(`set -eo pipefail; source ${state}\n${text}\nexport -p > ${state}`, scratch, env);
        expect(r.code, `${where}\nexited ${r.code}\n${r.stdout}\n${r.stderr}`).toBe(0);
      }
    } finally {
      await stop();
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
