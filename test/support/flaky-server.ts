import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** POST a JSON array of flakes here to plan failures from another process (a Python test). */
export const CONTROL_PATH = '/__flakes';

/** How the flaky server answers one request before it lets requests through again. */
export type Flake =
  | { status: number; retryAfter?: string; body?: string; contentType?: string }
  /** Closes the connection without an answer (the client sees a reset). */
  | { reset: true }
  /** Waits, then passes the request through. */
  | { delayMs: number };

export interface FlakyServer {
  url: string;
  /** Requests received so far (failed and passed through). */
  readonly requests: number;
  /** The next requests fail as listed, one flake each, then pass through again. */
  fail(...flakes: Flake[]): void;
  close(): Promise<void>;
}

/**
 * A proxy in front of a live server that fails on demand, as a load balancer or a restarting server
 * would: 502/503/504/429 answers, resets, slow answers; every other request goes through unchanged.
 */
export async function startFlakyServer(upstream: string): Promise<FlakyServer> {
  const plan: Flake[] = [];
  let requests = 0;
  const timers = new Set<NodeJS.Timeout>();

  async function pass(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const headers: Record<string, string> = {};
    for (const name of ['authorization', 'accept', 'if-none-match']) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const answer = await fetch(`${upstream}${req.url ?? '/'}`, { headers });
    const body = Buffer.from(await answer.arrayBuffer());
    const out: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (name !== 'content-length' && name !== 'transfer-encoding' && name !== 'connection' && name !== 'keep-alive') {
        out[name] = value;
      }
    });
    res.writeHead(answer.status, out);
    res.end(body);
  }

  const server = createServer((req, res) => {
    if (req.method === 'POST' && req.url === CONTROL_PATH) {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on('end', () => {
        plan.push(...(JSON.parse(body) as Flake[]));
        res.writeHead(204).end();
      });
      return;
    }
    requests++;
    const flake = plan.shift();
    if (flake !== undefined && 'reset' in flake) {
      req.socket.destroy();
      return;
    }
    if (flake !== undefined && 'status' in flake) {
      res.writeHead(flake.status, {
        'content-type': flake.contentType ?? 'text/plain; charset=utf-8',
        ...(flake.retryAfter === undefined ? {} : { 'retry-after': flake.retryAfter }),
      });
      res.end(flake.body ?? `Flaky answer ${flake.status}.`);
      return;
    }
    const go = () =>
      pass(req, res).catch(() => {
        if (!res.headersSent) res.writeHead(502).end();
      });
    if (flake === undefined) {
      void go();
      return;
    }
    const timer = setTimeout(() => {
      timers.delete(timer);
      void go();
    }, flake.delayMs);
    timers.add(timer);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return requests;
    },
    fail(...flakes) {
      plan.push(...flakes);
    },
    close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** An address where nothing listens: connecting to it is refused. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}
