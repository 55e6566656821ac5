import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchWithinOrigin, MAX_REDIRECTS, RedirectRefused } from './within-origin.js';

describe('fetchWithinOrigin', () => {
  let source: Server;
  let trap: Server;
  let base = '';
  let trapUrl = '';
  let trapConnections = 0;
  const hops: string[] = [];
  const listen = async (server: Server) => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  beforeAll(async () => {
    trap = createServer((_req, res) => res.end('trapped'));
    trap.on('connection', () => {
      trapConnections++;
    });
    trapUrl = await listen(trap);
    source = createServer((req, res) => {
      const path = req.url ?? '/';
      hops.push(path);
      const n = Number(/^\/chain\/([0-9]+)$/.exec(path)?.[1] ?? Number.NaN);
      if (n > 0) res.writeHead(302, { location: `/chain/${n - 1}` }).end();
      else if (n === 0) res.end('arrived');
      else if (path === '/away') res.writeHead(308, { location: `${trapUrl}/x` }).end();
      else if (path === '/nowhere') res.writeHead(302).end();
      else res.writeHead(404).end();
    });
    base = await listen(source);
  });
  afterAll(async () => {
    for (const s of [source, trap]) await new Promise((resolve) => s.close(resolve));
  });

  const get = (path: string) => {
    let before = 0;
    return fetchWithinOrigin(`${base}${path}`, { headers: {}, signal: AbortSignal.timeout(5000) }, async () => {
      before++;
    }).then(async (res) => ({ status: res.status, body: await res.text(), before }));
  };

  it(`follows up to ${MAX_REDIRECTS} redirects within the origin, each hop announced`, async () => {
    expect(await get(`/chain/${MAX_REDIRECTS}`)).toEqual({ status: 200, body: 'arrived', before: MAX_REDIRECTS });
  });

  it('refuses a sixth, a redirect to another origin (without connecting) and one without a Location', async () => {
    hops.length = 0;
    await expect(get(`/chain/${MAX_REDIRECTS + 1}`)).rejects.toThrow(RedirectRefused);
    expect(hops).toHaveLength(MAX_REDIRECTS + 1);
    await expect(get('/away')).rejects.toThrow(`redirected to another origin ("${trapUrl}"); not followed`);
    expect(trapConnections).toBe(0);
    await expect(get('/nowhere')).rejects.toThrow('answered 302 without a usable Location; not followed');
  });

  it('passes any other answer on as it came', async () => {
    expect((await get('/missing')).status).toBe(404);
  });
});
