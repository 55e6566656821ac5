import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../src/db/connect.js';
import { corpdata } from './support/cli.js';
import { dialects } from './support/dialects.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/filings', import.meta.url));
const TICKERS = join(FIXTURES, 'sec-tickers/company_tickers_exchange.json');
const BUNDLE = fileURLToPath(new URL('./fixtures/bundle', import.meta.url));

/**
 * Every command that reads a file the operator names reads regular files only: a symlink is
 * followed to one, a FIFO (whose open would wait for a writer), a device (which reads without
 * end) and a socket are refused by name at once, and no refusal shows the bytes of what was read.
 */
describe.each(dialects())('ingest and import read regular files only (%s)', (dialect) => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let dir: string;
  let socket: Server;
  const at = (...parts: string[]) => join(dir, ...parts);
  /** A bundle folder: the fixture's files, with `companies.csv` replaced by a link to `target`. */
  const bundleWith = (name: string, target: string) => {
    const folder = at(name);
    mkdirSync(folder);
    for (const f of ['fx_rates.csv', 'documents.csv', 'revenues.csv']) copyFileSync(join(BUNDLE, f), join(folder, f));
    symlinkSync(target, join(folder, 'companies.csv'));
    return folder;
  };
  /** A companyfacts folder holding one good file and a link to `target` named like a filer's file. */
  const factsWith = (name: string, target: string) => {
    const folder = at(name);
    mkdirSync(folder);
    copyFileSync(join(FIXTURES, 'sec-companyfacts/CIK0000789019.json'), join(folder, 'CIK0000789019.json'));
    symlinkSync(target, join(folder, 'CIK0000000001.json'));
    return folder;
  };
  const rows = async () => {
    const db = connect(database.config, { poolSize: 1 });
    try {
      return (await db.kysely.selectFrom('companies').select('company_id').execute()).length;
    } finally {
      await db.close();
    }
  };
  const refused = async (args: string[], line: string) => {
    const r = await corpdata(args, env);
    expect(r.code, args.join(' ')).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`${line}\n`);
  };

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    env = { CORPDATA_DATABASE: database.url, CORPDATA_DEMO: 'off' };
    expect((await corpdata(['migrate'], env)).code).toBe(0);
    dir = mkdtempSync(join(tmpdir(), 'corpdata-files-'));
    execFileSync('mkfifo', [at('fifo')]);
    socket = createServer();
    await new Promise<void>((resolve) => socket.listen(at('socket'), resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => socket.close(resolve));
    rmSync(dir, { recursive: true, force: true });
    await database.drop();
  });

  it('refuses a FIFO by name at once, wherever a file is named, and writes nothing', async () => {
    const fifo = at('fifo');
    for (const source of ['sec-tickers', 'sec-companyfacts', 'sec-fsds']) {
      await refused(['ingest', source, fifo], `${fifo}: is not a regular file (a FIFO)`);
    }
    const folder = factsWith('facts-fifo', fifo);
    await refused(
      ['ingest', 'sec-companyfacts', folder],
      `${join(folder, 'CIK0000000001.json')}: is not a regular file (a FIFO)`,
    );
    const bundle = bundleWith('bundle-fifo', fifo);
    await refused(['import', bundle], `${join(bundle, 'companies.csv')}: is not a regular file (a FIFO)`);
    expect(await rows()).toBe(0);
  });

  it('refuses a symlink to a device or a socket rather than read it', async () => {
    const folder = factsWith('facts-zero', '/dev/zero');
    await refused(
      ['ingest', 'sec-companyfacts', folder],
      `${join(folder, 'CIK0000000001.json')}: is not a regular file (a character device)`,
    );
    const bundle = bundleWith('bundle-zero', '/dev/zero');
    await refused(['import', bundle], `${join(bundle, 'companies.csv')}: is not a regular file (a character device)`);
    symlinkSync('/dev/zero', at('zero.zip'));
    await refused(['ingest', 'sec-fsds', at('zero.zip')], `${at('zero.zip')}: is not a regular file (a character device)`);
    await refused(['ingest', 'sec-tickers', at('socket')], `${at('socket')}: is not a regular file (a socket)`);
    expect(await rows()).toBe(0);
  });

  it('never shows the bytes of a file that is not what it should be (a link to /etc/passwd)', async () => {
    symlinkSync('/etc/passwd', at('passwd.json'));
    const folder = factsWith('facts-passwd', '/etc/passwd');
    const bundle = bundleWith('bundle-passwd', '/etc/passwd');
    for (const args of [
      ['ingest', 'sec-tickers', at('passwd.json')],
      ['ingest', 'sec-companyfacts', at('passwd.json')],
      ['ingest', 'sec-companyfacts', folder],
      ['ingest', 'sec-fsds', at('passwd.json')],
      ['import', bundle],
    ]) {
      const r = await corpdata(args, env);
      expect(r.code, args.join(' ')).not.toBe(0);
      expect(r.stderr).not.toContain('root');
      expect(r.stderr).not.toContain('/bin/');
    }
    await refused(
      ['ingest', 'sec-tickers', at('passwd.json')],
      `${at('passwd.json')}: is not valid JSON (a value expected at byte 0)`,
    );
    expect(await rows()).toBe(0);
  });

  it('follows a symlink to a regular file, and refuses a dangling one as missing', async () => {
    symlinkSync(TICKERS, at('tickers.json'));
    const r = await corpdata(['ingest', 'sec-tickers', at('tickers.json')], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ rows: 17, companies_added: 10 });
    const folder = factsWith('facts-dangling', at('nowhere.json'));
    await refused(['ingest', 'sec-companyfacts', folder], `${join(folder, 'CIK0000000001.json')}: does not exist`);
  });
});
