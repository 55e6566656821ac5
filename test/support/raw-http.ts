import { connect, type Socket } from 'node:net';

/** What came back on a raw connection: the status line's code, the headers by lower-case name, the body. */
export interface RawResponse {
  status: number;
  headers: Map<string, string>;
  body: string;
  /** Everything received, for messages. */
  raw: string;
}

function parse(raw: string): RawResponse {
  const end = raw.indexOf('\r\n\r\n');
  const head = end === -1 ? raw : raw.slice(0, end);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  let body = end === -1 ? '' : raw.slice(end + 4);
  const length = headers.get('content-length');
  if (length !== undefined) body = Buffer.from(body).subarray(0, Number(length)).toString();
  return { status: Number(statusLine.split(' ')[1] ?? 0), headers, body, raw };
}

/**
 * Sends bytes exactly as given (no client library would send a malformed request) and reads the
 * first response: until the server closes, or the response's Content-Length is complete.
 */
export function rawRequest(url: string, bytes: string | Buffer, timeoutMs = 10_000): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let data = Buffer.alloc(0);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete response within ${timeoutMs} ms: ${data.toString()}`));
    }, timeoutMs);
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(parse(data.toString()));
    };
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      const r = parse(data.toString());
      const length = r.headers.get('content-length');
      const end = data.indexOf('\r\n\r\n');
      if (length !== undefined && end !== -1 && data.length - end - 4 >= Number(length)) finish();
    });
    socket.on('close', finish);
    socket.on('error', () => undefined);
    socket.write(bytes);
  });
}

/** Opens a connection and resolves once it is established. */
export function openSocket(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Resolves when the server closes the connection, with how long that took. */
export function closed(socket: Socket): Promise<{ afterMs: number; received: string }> {
  const start = Date.now();
  let received = '';
  socket.on('data', (d) => {
    received += String(d);
  });
  return new Promise((resolve) => {
    if (socket.destroyed) return resolve({ afterMs: 0, received });
    socket.on('error', () => undefined);
    socket.once('close', () => resolve({ afterMs: Date.now() - start, received }));
  });
}
