import { type ChildProcess, spawn } from 'node:child_process';
import { BIN } from './cli.js';

/** `bin/corpdata ARGS` started in the background, to act on it (kill it, race it) while it runs. */
export function startCorpdata(args: string[], env: Record<string, string>) {
  const child: ChildProcess = spawn(BIN, args, { env: { PATH: process.env.PATH ?? '', ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d) => {
    stdout += String(d);
  });
  child.stderr?.on('data', (d) => {
    stderr += String(d);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, exited };
}

/** Waits until `condition` holds, polling; fails naming `what` after `timeoutMs`. */
export async function until(condition: () => Promise<boolean> | boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
