import { readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize, sep } from 'node:path';

/** One request as the server saw it. */
export interface SeenRequest {
  path: string;
  /** Arrival, ms since the epoch. */
  at: number;
  userAgent: string | undefined;
  conditional: boolean;
  status: number;
}

export interface SecServerOptions {
  /** A folder laid out as SEC's paths: `files/…`, `submissions/…`, `api/xbrl/companyfacts/…`. */
  root: string;
  /** Requests a second past which the server answers 429 (SEC's fair-access limit: 10). */
  limitPerSecond?: number;
  /** Seconds a 429 asks the client to wait. */
  retryAfterSeconds?: number;
  /** The status to answer the `nth` request (1-based) for `path` with instead, or null to serve it. */
  fail?: (path: string, nth: number) => number | null;
  /** Each answer waits this long (a slower network, so that a test can act mid-sync). */
  delayMs?: number;
}

export interface SecServer {
  url: string;
  readonly seen: readonly SeenRequest[];
  /** Requests for `path` so far. */
  count(path: string): number;
  close(): Promise<void>;
}

/**
 * Serves SEC-shaped paths from real SEC files, behaving as SEC's servers do towards a client:
 * 403 without a User-Agent, 429 with Retry-After past the request rate, 304 to a conditional
 * request whose validators still hold (an ETag of the file's mtime and size, the mtime as
 * Last-Modified), 404 for a file it does not have, and failures on demand (5xx).
 */
export async function startSecServer(options: SecServerOptions): Promise<SecServer> {
  const limit = options.limitPerSecond ?? 10;
  const seen: SeenRequest[] = [];
  const perPath = new Map<string, number>();
  const server = createServer(async (req, res) => {
    const at = Date.now();
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const userAgent = req.headers['user-agent'];
    const conditional = req.headers['if-none-match'] !== undefined || req.headers['if-modified-since'] !== undefined;
    const nth = (perPath.get(path) ?? 0) + 1;
    perPath.set(path, nth);
    // The rate as SEC counts it: every request of the last second, this one included.
    const recent = seen.filter((r) => r.at > at - 1000).length + 1;
    const entry: SeenRequest = { path, at, userAgent, conditional, status: 0 };
    seen.push(entry);
    const answer = (status: number, headers: Record<string, string> = {}, body: Buffer | string = '') => {
      entry.status = status;
      const send = () => res.writeHead(status, headers).end(body);
      if (options.delayMs === undefined) send();
      else setTimeout(send, options.delayMs);
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
    if (failure !== null) return answer(failure, { 'content-type': 'text/plain' }, 'Service Unavailable');
    const file = normalize(join(options.root, path));
    if (!file.startsWith(options.root + sep)) return answer(404);
    let body: Buffer;
    let mtime: Date;
    try {
      body = await readFile(file);
      mtime = (await stat(file)).mtime;
    } catch {
      return answer(404, { 'content-type': 'text/plain' }, 'Not Found');
    }
    // Of the file's time and size, as nginx makes it: hashing a 50 MB file would hold the server's
    // event loop, and the requests queued behind it would look like a burst to the rate count.
    const etag = `"${mtime.getTime().toString(16)}-${body.length.toString(16)}"`;
    const lastModified = new Date(Math.floor(mtime.getTime() / 1000) * 1000).toUTCString();
    const headers = { etag, 'last-modified': lastModified };
    const ifNoneMatch = req.headers['if-none-match'];
    const ifModifiedSince = req.headers['if-modified-since'];
    // RFC 9110 §13.2.2: If-None-Match decides when present; If-Modified-Since only without it.
    const unchanged =
      ifNoneMatch !== undefined
        ? ifNoneMatch.split(',').some((t) => t.trim() === etag)
        : ifModifiedSince !== undefined && Date.parse(ifModifiedSince) >= Date.parse(lastModified);
    if (unchanged) return answer(304, headers);
    return answer(200, { ...headers, 'content-type': 'application/json' }, body);
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
