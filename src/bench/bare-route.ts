import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BareRoutes, RecordedAnswer } from './bare-server.js';

/** Headers any Fastify answer carries anyway (a bare route's too): not copied from the app's. */
const FRAMEWORK_HEADERS = new Set(['content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding']);

/** Records an answer of the app, as a bare route is to replay it. */
export async function recordAnswer(response: Response): Promise<RecordedAnswer> {
  const body = Buffer.from(await response.arrayBuffer());
  const headers = Object.fromEntries([...response.headers].filter(([name]) => !FRAMEWORK_HEADERS.has(name)));
  return { status: response.status, headers, body: body.toString('base64') };
}

/** A running bare server (bare-server.ts): its process and the URL of each route. */
export interface BareServer {
  pid: number;
  url(name: string): string;
  stop(): Promise<void>;
}

/** Starts the bare routes in a process of their own and waits until they listen. */
export function startBareServer(routes: BareRoutes): Promise<BareServer> {
  const child: ChildProcess = spawn(process.execPath, [fileURLToPath(new URL('./bare-server.js', import.meta.url))], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    const exited = (code: number | null) => reject(new Error(`bare server exited with ${code}`));
    child.once('exit', exited);
    child.once('message', ({ port }: { port: number }) => {
      child.off('exit', exited);
      resolve({
        pid: child.pid ?? 0,
        url: (name) => `http://127.0.0.1:${port}/bare/${name}`,
        stop: () => stopChild(child),
      });
    });
    child.send(routes);
  });
}

/** Stops a child process with SIGTERM and waits for its exit. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exit = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exit;
}
