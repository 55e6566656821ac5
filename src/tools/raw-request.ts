import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Map<string, string>;
  body: string;
}

/**
 * Sends bytes as given (a malformed request no HTTP client would send) and reads the first
 * response; null when the server closed without one.
 */
export function rawRequest(host: string, port: number, bytes: string | Buffer, timeoutMs = 10_000): Promise<RawAnswer | null> {
  return new Promise((resolve) => {
    const socket = connect(port, host);
    let data = Buffer.alloc(0);
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(parse(data.toString('latin1')));
    };
    const timer = setTimeout(finish, timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      const answer = parse(data.toString('latin1'));
      const end = data.indexOf('\r\n\r\n');
      const length = answer?.headers.get('content-length');
      if (length !== undefined && end !== -1 && data.length - end - 4 >= Number(length)) finish();
    });
    socket.on('close', finish);
    socket.on('error', () => undefined);
    socket.write(bytes);
  });
}

function parse(raw: string): RawAnswer | null {
  const end = raw.indexOf('\r\n\r\n');
  if (end === -1) return null;
  const [statusLine = '', ...lines] = raw.slice(0, end).split('\r\n');
  const headers = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { status: Number(statusLine.split(' ')[1] ?? 0), headers, body: raw.slice(end + 4) };
}
