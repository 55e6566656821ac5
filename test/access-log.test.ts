import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from './support/dialects.js';
import { BETA } from './support/fixture.js';
import { captureLog } from './support/log-capture.js';
import { startApp, type TestAccount, type TestApp } from './support/test-app.js';

describe.each(dialects())('access log (%s)', (dialect) => {
  let t: TestApp;
  let caller: TestAccount;
  const log = captureLog();
  beforeAll(async () => {
    t = await startApp(dialect, { logTo: log.stream, env: { LOG_LEVEL: 'info' } });
    caller = await t.account({ credits: 1000 });
  });
  afterAll(() => t.close());

  const linesOf = (requestId: string) =>
    log
      .text()
      .split('\n')
      .filter((l) => l.includes(requestId))
      .map((l) => JSON.parse(l) as Record<string, unknown>);

  it('writes one line per request with its id, route, status, cost and duration, and never the key', async () => {
    const res = await t.get(`/api/v1/revenues?company_id=${BETA.id}&reporting_period=2023`, caller.key);
    expect(res.status).toBe(200);
    const id = res.headers.get('x-request-id') ?? '';
    await new Promise((r) => setTimeout(r, 20));
    const lines = linesOf(id);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      reqId: id,
      msg: 'request',
      method: 'GET',
      route: '/api/v1/revenues',
      status: 200,
      cost: 25,
    });
    expect(typeof lines[0]?.ms).toBe('number');
    expect(log.text()).not.toContain(caller.key);
  });

  it('logs refused calls too, at no cost', async () => {
    const res = await t.get(`/api/v1/revenues?company_id=${BETA.id}`, caller.key);
    expect(res.status).toBe(400);
    await new Promise((r) => setTimeout(r, 20));
    const lines = linesOf(res.headers.get('x-request-id') ?? '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ status: 400, route: '/api/v1/revenues' });
    expect(lines[0]?.cost).toBeUndefined();
  });

  it('writes the line pino writes: its level, time and bindings first, its url as sent', async () => {
    const res = await t.get(`/api/v1/revenues?ticker=%22%0A%1BBETA&reporting_period=2023`, caller.key);
    expect(res.status).toBe(404);
    await new Promise((r) => setTimeout(r, 20));
    const lines = linesOf(res.headers.get('x-request-id') ?? '');
    expect(lines).toHaveLength(1);
    const line = lines[0] ?? {};
    expect(Object.keys(line)).toEqual([
      'level',
      'time',
      'pid',
      'hostname',
      'reqId',
      'method',
      'url',
      'route',
      'status',
      'ms',
      'msg',
    ]);
    expect(line).toMatchObject({ level: 30, pid: process.pid, status: 404, msg: 'request' });
    expect(typeof line.time).toBe('number');
    expect(line.url).toBe(`/api/v1/revenues?ticker=%22%0A%1BBETA&reporting_period=2023`);
  });

  it('writes no access line below its level', async () => {
    const quietLog = captureLog();
    const quiet = await startApp(dialect, { logTo: quietLog.stream, env: { LOG_LEVEL: 'warn' } });
    try {
      const account = await quiet.account({ credits: 10 });
      const res = await quiet.get('/api/v1/companies/search?query=a', account.key);
      expect(res.status).toBe(200);
    } finally {
      await quiet.close();
    }
    expect(quietLog.text()).not.toContain('"msg":"request"');
  });
});
