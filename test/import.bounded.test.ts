import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpdata, corpdataPeak } from './support/cli.js';
import { dialects } from './support/dialects.js';
import { FIXTURE_BUNDLE, startApp, type TestApp } from './support/test-app.js';

const MIB = 1024 * 1024;
/** The bound of the acceptance: the demo bundle imports in some 200 MiB. */
const PEAK_MIB = 300;
const COMPANIES_HEADER = 'company_id,name,country,lei,ticker,mic_code,isin';

/**
 * `bin/corpdata import` reads CSV within bounds: blank lines cost nothing (a file of a header and
 * 32 MiB of them once took over a gigabyte), a file of nothing else after its header is refused
 * by name in constant memory, and blank lines among rows are read past.
 */
describe.each(dialects())('import reads blank lines in bounded memory (%s)', (dialect) => {
  let t: TestApp;
  let dir: string;
  const env = () => ({ CORPDATA_DATABASE: t.database.url, CORPDATA_DEMO: 'off' });
  const companies = async () => (await t.db.kysely.selectFrom('companies').select('company_id').execute()).length;

  beforeAll(async () => {
    t = await startApp(dialect, { bundle: null });
    dir = mkdtempSync(join(tmpdir(), 'corpdata-blank-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t.close();
  });

  it('refuses a header and 32 MiB of blank lines by name, under 300 MiB and within 2 minutes', async () => {
    const bundle = join(dir, 'blank');
    mkdirSync(bundle);
    writeFileSync(
      join(bundle, 'companies.csv'),
      Buffer.concat([Buffer.from(`${COMPANIES_HEADER}\n`), Buffer.alloc(32 * MIB, 0x0a)]),
    );
    const started = Date.now();
    const r = await corpdataPeak(['import', bundle], env());
    expect(Date.now() - started).toBeLessThan(120_000);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      `companies.csv:2: holds only blank lines after its header (${32 * MIB}): a file without rows holds its header alone`,
    );
    expect(r.peakMiB).toBeLessThan(PEAK_MIB);
    expect(await companies()).toBe(0);
  }, 150_000);

  it('refuses CRLF blank lines after a header the same way, and takes a header alone', async () => {
    const bundle = join(dir, 'crlf');
    mkdirSync(bundle);
    writeFileSync(join(bundle, 'companies.csv'), `${COMPANIES_HEADER}\r\n\r\n\r\n`);
    writeFileSync(join(bundle, 'listings.csv'), 'company_id,ticker,mic_code,isin\n');
    const r = await corpdata(['import', bundle], env());
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('companies.csv:2: holds only blank lines after its header (2)');
    expect(r.stderr).not.toContain('listings.csv');
  });

  it('reads past blank lines among rows (LF and CRLF), importing as if they were not there', async () => {
    const bundle = join(dir, 'spaced');
    mkdirSync(bundle);
    for (const f of ['fx_rates.csv', 'companies.csv', 'listings.csv', 'documents.csv', 'revenues.csv']) {
      const lines = readFileSync(join(FIXTURE_BUNDLE, f), 'utf8').trimEnd().split('\n');
      writeFileSync(join(bundle, f), `\n${lines.join('\n\r\n\n')}\n\n\n`);
    }
    const r = await corpdata(['import', bundle], env());
    expect(r.code, r.stderr).toBe(0);
    const fixtureRows = readFileSync(join(FIXTURE_BUNDLE, 'companies.csv'), 'utf8').trimEnd().split('\n').length - 1;
    expect(r.json<{ companies: number }>().companies).toBe(fixtureRows);
    expect(await companies()).toBe(fixtureRows);
  });
});
