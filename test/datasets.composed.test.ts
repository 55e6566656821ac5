import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATASETS } from './support/datasets.js';
import { dialects } from './support/dialects.js';
import { startApp, type TestApp } from './support/test-app.js';

/**
 * The app serves the datasets it is composed with, and no other: a test (or an operator's build)
 * can compose another set, and routes, subscriptions, the OpenAPI document and the home page follow.
 */
const [first, ...others] = DATASETS;
if (first === undefined || others.length === 0) throw new Error('the registry holds several datasets');

describe.each(dialects())('an app composed with one dataset (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(dialect, { datasets: [first] });
  });
  afterAll(() => t.close());

  it('serves that dataset and answers 404 for the others', async () => {
    const account = await t.account();
    const served = await t.get(`${first.route.path}?ticker=BETA&reporting_period=2023`, account.key);
    expect(served.status).toBe(200);
    for (const other of others) {
      const res = await fetch(`${t.url}${other.route.path}?ticker=BETA&reporting_period=2023`, {
        headers: { authorization: `Bearer ${account.key}` },
      });
      expect(res.status, other.name).toBe(404);
    }
  });

  it('offers only its subscription to accounts', async () => {
    const account = await t.account();
    const res = await t.get('/api/v1/account', account.key);
    expect(((await res.json()) as { subscriptions: string[] }).subscriptions).toEqual([first.subscription]);
  });

  it('documents only its operations, and lists only it on the home page', async () => {
    const doc = (await (await fetch(`${t.url}/api/v1/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toContain(first.route.path);
    for (const other of others) expect(Object.keys(doc.paths)).not.toContain(other.route.path);
    const home = await (await fetch(`${t.url}/`)).text();
    expect(home).toContain(`<code>${first.route.path}</code>`);
    for (const other of others) expect(home).not.toContain(`<code>${other.route.path}</code>`);
  });
});
