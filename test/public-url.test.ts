import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiGet } from './support/api-client.js';
import { freePort, startServer } from './support/cli.js';
import { dialects } from './support/dialects.js';
import { startApp, TEST_SECRET, type TestApp } from './support/test-app.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

type Doc = { servers: Array<{ url: string }> };

describe.each(dialects())('CORPDATA_PUBLIC_URL unset (%s)', (dialect) => {
  let t: TestApp;
  let port: string;
  beforeAll(async () => {
    // The app listens on port 0: its links must name the port the system gave it.
    t = await startApp(dialect, { env: { CORPDATA_PUBLIC_URL: '' } });
    port = new URL(t.url).port;
  });
  afterAll(() => t.close());

  it('links to http://localhost:{the bound port}: traceability URLs, the home page; the OpenAPI server is 127.0.0.1 on that port', async () => {
    const base = `http://localhost:${port}`;
    const a = await t.account();
    const res = await t.get('/api/v1/revenues?ticker=BETA&reporting_period=2023', a.key);
    for (const r of res.json<Array<{ traceability_source_url: string }>>()) {
      expect(r.traceability_source_url.startsWith(`${base}/trace/`)).toBe(true);
    }
    // Redocly's recommended rules refuse "localhost" in a server URL; 127.0.0.1 is the same machine.
    const server = `http://127.0.0.1:${port}`;
    expect((await t.get('/api/v1/openapi.json')).json<Doc>().servers).toEqual([{ url: server, description: expect.any(String) }]);
    expect(await (await fetch(`${t.url}/`)).text()).toContain(`${base}/api/v1/revenues`);
  });
});

describe('CORPDATA_PUBLIC_URL unset, served by bin/corpdata serve with PORT', () => {
  let database: TestDatabase;
  let server: Awaited<ReturnType<typeof startServer>>;
  let port: number;
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    port = await freePort();
    server = await startServer({ CORPDATA_DATABASE: database.url, CORPDATA_SECRET: TEST_SECRET, CORPDATA_DEMO: 'off' }, port);
  });
  afterAll(async () => {
    await server.stop();
    await database.drop();
  });

  it('names that port, not 8080', async () => {
    const doc = (await apiGet(server.url, '/api/v1/openapi.json')).json<Doc>();
    expect(doc.servers[0]?.url).toBe(`http://127.0.0.1:${port}`);
    const home = await (await fetch(`${server.url}/`)).text();
    expect(home).toContain(`http://localhost:${port}/api/v1/revenues`);
    expect(home).not.toContain(':8080');
  });
});
