import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HostileServer {
  url: string;
  port: number;
  /** Request paths as sent (not decoded), in arrival order. */
  readonly paths: readonly string[];
  /** TCP connections accepted, whether or not a request came on them. */
  readonly connections: number;
  close(): Promise<void>;
}

/**
 * A data source that answers as `handle` says, on loopback only: redirects elsewhere, hostile
 * names and bodies, bodies a byte a second. With no handler it answers 200 to anything: a trap
 * that counts the connections a sync must never make to it.
 */
export async function startHostileServer(
  handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end('trapped'),
): Promise<HostileServer> {
  const paths: string[] = [];
  let connections = 0;
  const server = createServer((req, res) => {
    paths.push(req.url ?? '/');
    handle(req, res);
  });
  server.on('connection', () => {
    connections++;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    paths,
    get connections() {
      return connections;
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** Answers 200 and then sends `body` one byte a second, for as long as the client listens. */
export function trickle(res: ServerResponse, body = '['): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  let i = 0;
  const timer = setInterval(() => {
    if (res.destroyed) {
      clearInterval(timer);
      return;
    }
    res.write(body[i % body.length] ?? ' ');
    i++;
  }, 1000);
  res.on('close', () => clearInterval(timer));
}
