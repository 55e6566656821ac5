import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpdata, ingestCli } from './support/cli.js';
import { dialects } from './support/dialects.js';
import { startSecServer } from './support/sec-server.js';
import { startApp, type TestApp } from './support/test-app.js';

const SEC_ROOT = fileURLToPath(new URL('./fixtures/sec-sync', import.meta.url));
const APPLE_FACTS = join(SEC_ROOT, 'api/xbrl/companyfacts/CIK0000320193.json');
const UA = 'corpdata tests admin@example.com';

interface SourceStatus {
  source: string;
  last_success_at: string | null;
  last_error: { at: string; message: string } | null;
  served_24h: { documents: number; median_lag_seconds: number | null; worst_lag_seconds: number | null };
}

/** The lags as this test reckons them from the rows: whole seconds from the date's midnight UTC to served. */
function expectedLags(rows: readonly { published_on: string; served_at: string | null }[]) {
  const lags = rows
    .map((r) => Math.floor((Date.parse(r.served_at ?? '') - Date.parse(`${r.published_on}T00:00:00Z`)) / 1000))
    .sort((a, b) => a - b);
  const mid = Math.floor(lags.length / 2);
  const median = lags.length % 2 === 1 ? lags[mid] : Math.floor(((lags[mid - 1] ?? 0) + (lags[mid] ?? 0)) / 2);
  return { documents: lags.length, median_lag_seconds: median, worst_lag_seconds: lags.at(-1) };
}

describe.each(dialects())('GET /api/v1/status: how fresh the data is (%s)', (dialect) => {
  let t: TestApp;
  // The app's clock, moved past the status's few seconds of reuse whenever a test needs a new read.
  let skew = 0;
  const status = async () => {
    skew += 10_000;
    const res = await t.get('/api/v1/status', null);
    expect(res.status, res.text).toBe(200);
    return res.json<{ generated_at: string; sources: SourceStatus[] }>();
  };
  const sourceOf = async (name: string) => (await status()).sources.find((s) => s.source === name);
  let started: string;

  beforeAll(async () => {
    started = new Date().toISOString();
    t = await startApp(dialect, { clock: () => new Date(Date.now() + skew) });
  });
  afterAll(() => t.close());

  it('answers without a key, free, each source in name order; the imported fixture served now, from its documents’ dates', async () => {
    const body = await status();
    expect(Date.parse(body.generated_at)).toBeGreaterThan(Date.parse(started));
    const names = body.sources.map((s) => s.source);
    expect(names).toEqual([...names].sort());
    const bundle = body.sources.find((s) => s.source === 'bundle');
    const rows = await t.db.kysely
      .selectFrom('documents')
      .select(['published_on', 'served_at'])
      .where('source', '=', 'bundle')
      .where('status', '=', 'processed')
      .where('published_on', '<>', '')
      .execute();
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r.served_at !== null && r.served_at >= started).toBe(true);
    expect(bundle).toMatchObject({ last_success_at: null, last_error: null, served_24h: expectedLags(rows) });
  });

  it('refuses a parameter it does not take with a 400 naming it, and any method but GET with 405', async () => {
    const res = await t.get('/api/v1/status?source=sec', null);
    expect(res.status).toBe(400);
    expect(res.text).toContain('source');
    const post = await fetch(`${t.url}/api/v1/status`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
  });

  it('counts a filing once, when an ingest first serves it: the same file again serves nothing new', async () => {
    const first = await ingestCli(t.database.url, 'sec-companyfacts', APPLE_FACTS);
    expect(first.code, first.stderr).toBe(0);
    const rows = () =>
      t.db.kysely
        .selectFrom('documents')
        .select(['document_id', 'published_on', 'served_at'])
        .where('source', '=', 'sec')
        .where('status', '=', 'processed')
        .orderBy('document_id')
        .execute();
    const served = await rows();
    expect(served.length).toBeGreaterThan(3);
    expect((await sourceOf('sec'))?.served_24h).toEqual(expectedLags(served));
    const again = await ingestCli(t.database.url, 'sec-companyfacts', APPLE_FACTS);
    expect(again.code, again.stderr).toBe(0);
    expect(await rows()).toEqual(served);
    // Older than a day, nothing counts, while the documents keep their time.
    skew += 25 * 60 * 60 * 1000;
    expect((await sourceOf('sec'))?.served_24h).toEqual({ documents: 0, median_lag_seconds: null, worst_lag_seconds: null });
    skew -= 25 * 60 * 60 * 1000;
  });

  it('tells the last successful poll of a source and the last failed one, which does not hide the success', async () => {
    const server = await startSecServer({ root: SEC_ROOT });
    const env = {
      CORPDATA_DATABASE: t.database.url,
      CORPDATA_DEMO: 'off',
      CORPDATA_SEC_BASE_URL: server.url,
      CORPDATA_SEC_USER_AGENT: UA,
      CORPDATA_SYNC_RETRY_BASE_MS: '20',
    };
    const before = new Date().toISOString();
    const ok = await corpdata(['sync', 'sec', '--ciks', '320193'], env);
    expect(ok.code, ok.stderr).toBe(0);
    const afterOk = await sourceOf('sec');
    expect(afterOk?.last_error).toBeNull();
    expect(afterOk?.last_success_at !== null && (afterOk?.last_success_at ?? '') >= before).toBe(true);
    // A dry run polls nothing the status would tell.
    expect((await corpdata(['sync', 'sec', '--ciks', '320193', '--dry-run'], env)).code).toBe(0);
    expect((await sourceOf('sec'))?.last_success_at).toBe(afterOk?.last_success_at);
    await server.close();
    const failed = await corpdata(['sync', 'sec', '--ciks', '320193'], env);
    expect(failed.code).toBe(69);
    const afterFail = await sourceOf('sec');
    expect(afterFail?.last_success_at).toBe(afterOk?.last_success_at);
    expect(afterFail?.last_error?.message).toMatch(/every request failed/);
    expect((afterFail?.last_error?.at ?? '') > (afterOk?.last_success_at ?? '')).toBe(true);
  }, 120_000);

  it('shows each source’s freshness on the home page', async () => {
    skew += 10_000;
    const res = await fetch(`${t.url}/`);
    const page = await res.text();
    expect(res.status).toBe(200);
    expect(page).toContain('<h2>Freshness</h2>');
    expect(page).toMatch(/<td data-label="Source"><code>sec<\/code><\/td>/);
    expect(page).toContain('every request failed');
  });
});
