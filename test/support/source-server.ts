import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the server saw it. */
export interface SeenRequest {
  /** The path, with the query when there is one (decoded). */
  path: string;
  /** Arrival, ms since the epoch. */
  at: number;
  userAgent: string | undefined;
  conditional: boolean;
  status: number;
}

/** What the server has at a URL: the body and the validators a conditional request is held against. */
export interface Resource {
  body: Buffer;
  etag: string;
  lastModified: string;
}

export interface SourceServerOptions {
  /** The resource at a request's URL; null answers 404. */
  resolve: (url: URL) => Promise<Resource | null>;
  /** Requests a second past which the server answers 429 (SEC's fair-access limit: 10). */
  limitPerSecond?: number;
  /** Seconds a 429 asks the client to wait. */
  retryAfterSeconds?: number;
  /** The status to answer the `nth` request (1-based) for `path` with instead, or null to serve it. */
  fail?: (path: string, nth: number) => number | null;
  /** The body of a failure answer (a source's own error document); plain text by default. */
  failBody?: Buffer;
  /** Each answer waits this long (a slower network, so that a test can act mid-sync). */
  delayMs?: number | ((path: string) => number);
}

export interface SourceServer {
  url: string;
  readonly seen: readonly SeenRequest[];
  /** Requests for `path` (with its query, as {@link SeenRequest.path}) so far. */
  count(path: string): number;
  close(): Promise<void>;
}

/**
 * A public data source as it behaves towards a client, whatever it serves: 403 without a
 * User-Agent, 429 with Retry-After past the request rate, 304 to a conditional request whose
 * validators still hold, 404 for what it does not have, and failures on demand (5xx).
 */
export async function startSourceServer(options: SourceServerOptions): Promise<SourceServer> {
  const limit = options.limitPerSecond ?? 10;
  const seen: SeenRequest[] = [];
  const perPath = new Map<string, number>();
  const server = createServer(async (req, res) => {
    const at = Date.now();
    const url = new URL(req.url ?? '/', 'http://x');
    const path = decodeURIComponent(url.pathname + url.search);
    const userAgent = req.headers['user-agent'];
    const conditional = req.headers['if-none-match'] !== undefined || req.headers['if-modified-since'] !== undefined;
    const nth = (perPath.get(path) ?? 0) + 1;
    perPath.set(path, nth);
    // The rate as a source counts it: every request of the last second, this one included.
    const recent = seen.filter((r) => r.at > at - 1000).length + 1;
    const entry: SeenRequest = { path, at, userAgent, conditional, status: 0 };
    seen.push(entry);
    const delay = typeof options.delayMs === 'function' ? options.delayMs(path) : options.delayMs;
    const answer = (status: number, headers: Record<string, string> = {}, body: Buffer | string = '') => {
      entry.status = status;
      const send = () => res.writeHead(status, headers).end(body);
      if (delay === undefined || delay === 0) send();
      else setTimeout(send, delay);
    };
    if (userAgent === undefined || userAgent === '')
      return answer(403, { 'content-type': 'text/plain' }, 'Undeclared Automated Tool');
    if (recent > limit) {
      return answer(
        429,
        { 'retry-after': String(options.retryAfterSeconds ?? 1), 'content-type': 'text/plain' },
        'Too Many Requests',
      );
    }
    const failure = options.fail?.(path, nth) ?? null;
    if (failure !== null) {
      return options.failBody === undefined
        ? answer(failure, { 'content-type': 'text/plain' }, 'Service Unavailable')
        : answer(failure, { 'content-type': 'application/json' }, options.failBody);
    }
    const found = await options.resolve(url);
    if (found === null) return answer(404, { 'content-type': 'text/plain' }, 'Not Found');
    const headers = { etag: found.etag, 'last-modified': found.lastModified };
    const ifNoneMatch = req.headers['if-none-match'];
    const ifModifiedSince = req.headers['if-modified-since'];
    // RFC 9110 §13.2.2: If-None-Match decides when present; If-Modified-Since only without it.
    const unchanged =
      ifNoneMatch !== undefined
        ? ifNoneMatch.split(',').some((t) => t.trim() === found.etag)
        : ifModifiedSince !== undefined && Date.parse(ifModifiedSince) >= Date.parse(found.lastModified);
    if (unchanged) return answer(304, headers);
    return answer(200, { ...headers, 'content-type': 'application/json' }, found.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    count: (path) => perPath.get(path) ?? 0,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The most requests the server saw in any one second. */
export function peakPerSecond(server: SourceServer): number {
  const times = server.seen.map((r) => r.at);
  let peak = 0;
  for (let i = 0; i < times.length; i++) {
    const t = times[i] as number;
    peak = Math.max(peak, times.filter((u) => u >= t && u < t + 1000).length);
  }
  return peak;
}
