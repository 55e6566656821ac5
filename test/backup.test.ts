import { copyFileSync, existsSync, lstatSync, mkdtempSync, readlinkSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { connect } from '../src/db/connect.js';
import { corpdata } from './support/cli.js';
import { dialects } from './support/dialects.js';
import { expectLedgersBalance, PUBLIC_URL, startApp, TEST_SECRET, type TestApp } from './support/test-app.js';
import { createTestDatabase } from './support/test-database.js';

const PATHS = [
  '/api/v1/revenues?ticker=BETA&reporting_period=2023',
  '/api/v1/revenues?ticker=ALPH&mic_code=XETR&reporting_period=2022',
  '/api/v1/revenues?ticker=ALPH&mic_code=XETR&reporting_period=-1',
  '/api/v1/companies/search?query=gamma',
];

describe.each(dialects().filter((d) => d === 'sqlite'))('bin/corpdata backup (%s)', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    t = await startApp('sqlite');
    dir = mkdtempSync(join(tmpdir(), 'corpdata-backup-'));
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('copies the live database while requests are billed, and the restored copy has every ledger intact', async () => {
    // Credits enough that no account runs dry while the load runs, however long the backup takes.
    const accounts = await Promise.all([1, 2, 3].map(() => t.account({ credits: 1_000_000 })));
    let stop = false;
    let billed = 0;
    const load = accounts.map(async (a, i) => {
      for (let n = i; !stop; n += 1) {
        const res = await t.get(PATHS[n % PATHS.length] ?? '', a.key);
        if (res.status === 200 || res.status === 204) billed += 1;
      }
    });
    await new Promise((r) => setTimeout(r, 300));
    const file = join(dir, 'copy.db');
    const result = await corpdata(['backup', file], { CORPDATA_DATABASE: t.database.url });
    const billedDuringBackup = billed;
    stop = true;
    await Promise.all(load);
    expect(result.code, result.stderr).toBe(0);
    expect(result.json()).toEqual({ backup: file, bytes: statSync(file).size });
    expect(billedDuringBackup).toBeGreaterThan(0);

    // Restore as docs/deployment.md says: with the server stopped, the copy becomes the database file.
    const restoredPath = join(dir, 'restored', 'corpdata.db');
    const restored = connect({ kind: 'sqlite', path: restoredPath });
    await restored.close();
    rmSync(restoredPath);
    copyFileSync(file, restoredPath);
    const config = loadConfig({
      CORPDATA_DATABASE: `sqlite:${restoredPath}`,
      CORPDATA_DEMO: 'off',
      CORPDATA_SECRET: TEST_SECRET,
      CORPDATA_PUBLIC_URL: PUBLIC_URL,
      LOG_LEVEL: 'silent',
    });
    const db = connect(config.database);
    try {
      await expectLedgersBalance(db);
      // The copy is a moment of the live ledger: each of its entries is in the live one, unchanged.
      for (const a of accounts) {
        const copy = await db.kysely
          .selectFrom('ledger')
          .selectAll()
          .where('account_id', '=', a.accountId)
          .orderBy('entry_id')
          .execute();
        const live = await t.db.kysely
          .selectFrom('ledger')
          .selectAll()
          .where('account_id', '=', a.accountId)
          .orderBy('entry_id')
          .execute();
        expect(copy.length).toBeGreaterThan(1);
        expect(live.slice(0, copy.length)).toEqual(copy);
      }
      // And the restored database serves: the keys work, repeats cost 1.
      const app = await buildApp({ config, db, logTo: false });
      const account = accounts[0];
      if (account === undefined) throw new Error('no account');
      const res = await app.inject({ url: PATHS[0] ?? '', headers: { authorization: `Bearer ${account.key}` } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-credit-cost']).toBe('1');
      await app.close();
      await expectLedgersBalance(db);
    } finally {
      await db.close();
    }
  });

  it('refuses to overwrite an existing file, the live database included', async () => {
    const file = join(dir, 'exists.db');
    copyFileSync(t.database.config.kind === 'sqlite' ? t.database.config.path : '', file);
    const size = statSync(file).size;
    const again = await corpdata(['backup', file], { CORPDATA_DATABASE: t.database.url });
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/^corpdata: .*exists.*\n$/);
    expect(statSync(file).size).toBe(size);
    const onItself = await corpdata(['backup', t.database.url.slice('sqlite:'.length)], { CORPDATA_DATABASE: t.database.url });
    expect(onItself.code).not.toBe(0);
    expect(onItself.stderr.split('\n')).toHaveLength(2);
  });

  it('refuses a target that is a dangling symlink, and writes nothing where it points', async () => {
    const pointed = join(dir, 'pointed-to.db');
    const link = join(dir, 'link.db');
    symlinkSync(pointed, link);
    const r = await corpdata(['backup', link], { CORPDATA_DATABASE: t.database.url });
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`corpdata: ${link} exists; name a new file\n`);
    expect(existsSync(pointed)).toBe(false);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(pointed);
  });
});

describe.each(dialects().filter((d) => d === 'postgres'))('bin/corpdata backup (%s)', () => {
  it('refuses on PostgreSQL with one line pointing to pg_dump in the deployment guide', async () => {
    const database = await createTestDatabase('postgres');
    try {
      const file = join(tmpdir(), `corpdata-never-${Date.now()}.db`);
      const res = await corpdata(['backup', file], { CORPDATA_DATABASE: database.url });
      expect(res.code).not.toBe(0);
      expect(res.stdout).toBe('');
      expect(res.stderr).toMatch(/^corpdata: [^\n]*pg_dump[^\n]*docs\/deployment\.md[^\n]*\n$/);
      expect(existsSync(file)).toBe(false);
    } finally {
      await database.drop();
    }
  });
});
