import { closeSync, createWriteStream, ftruncateSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { corpdata, corpdataPeak } from './support/cli.js';
import { dialects } from './support/dialects.js';
import { startApp, type TestApp } from './support/test-app.js';

const TICKERS = fileURLToPath(new URL('./fixtures/filings/sec-tickers/company_tickers_exchange.json', import.meta.url));
const MIB = 1024 * 1024;
const GIB = 1024 * MIB;
/** The bound every run here must stay under, whatever the input's size. */
const PEAK_MIB = 512;

/** Microsoft's 10-K revenue for the year ended 30 June 2020, as companyfacts gives it. */
const MICROSOFT = JSON.stringify({
  cik: 789019,
  entityName: 'MICROSOFT CORP',
  facts: {
    'us-gaap': {
      Revenues: {
        units: {
          USD: [
            {
              start: '2019-07-01',
              end: '2020-06-30',
              val: 143_015_000_000,
              accn: '0001564590-20-034944',
              form: '10-K',
              filed: '2020-07-31',
            },
          ],
        },
      },
    },
  },
});

function* repeated(block: Buffer, times: number): Generator<Buffer> {
  for (let i = 0; i < times; i++) yield block;
}

/** yazl's fastest deflate (its types omit the option): the padding compresses well at any level. */
const FAST = { compress: true, compressionLevel: 1 } as Partial<yazl.ReadStreamOptions>;

/** Writes a zip whose entries stream from generators: a gigabyte of padding is never in memory. */
async function writeZip(path: string, entries: Record<string, () => Iterable<Buffer>>): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const [name, body] of Object.entries(entries)) zip.addReadStream(Readable.from(body()), name, FAST);
  zip.end();
  await pipeline(zip.outputStream as Readable, createWriteStream(path));
}

interface Inputs {
  dir: string;
  /** companyfacts.zip: Microsoft's filing, its last brace after 1 GiB of whitespace (about 1 MB zipped). */
  paddedZip: string;
  /** A data set whose num.txt has a 600 MiB second line (past V8's largest string, 512 MiB). */
  longLineZip: string;
  /** CIK0000789019.json: 2 GB on one line, a sparse file of NUL bytes. */
  hugeJson: string;
}

/** The inputs, made once for every dialect: deflating 1.6 GiB takes seconds. */
let made: Promise<Inputs> | undefined;
function inputs(): Promise<Inputs> {
  made ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'corpdata-limits-'));
    const paddedZip = join(dir, 'companyfacts.zip');
    const json = Buffer.from(MICROSOFT);
    // Deflating runs in Node's thread pool: both zips are made at once.
    const padded = writeZip(paddedZip, {
      'CIK0000789019.json': () => [json.subarray(0, -1), ...repeated(Buffer.alloc(MIB, 0x20), 1024), json.subarray(-1)],
    });
    const longLineZip = join(dir, '2020q1.zip');
    const sub = 'adsh\tcik\tname\tform\tfiled\n0000789019-20-000001\t789019\tMICROSOFT CORP\t10-K\t20200731\n';
    const longLine = writeZip(longLineZip, {
      'sub.txt': () => [Buffer.from(sub)],
      'num.txt': () => [
        Buffer.from('adsh\ttag\tversion\tddate\tqtrs\tuom\tsegments\tcoreg\tvalue\tfootnote\n'),
        ...repeated(Buffer.alloc(MIB, 0x78), 600),
        Buffer.from('\n'),
      ],
    });
    await Promise.all([padded, longLine]);
    const hugeJson = join(dir, 'CIK0000789019.json');
    const fd = openSync(hugeJson, 'w');
    ftruncateSync(fd, 2_000_000_000);
    closeSync(fd);
    return { dir, paddedZip, longLineZip, hugeJson };
  })();
  return made;
}

afterAll(async () => {
  if (made !== undefined) rmSync((await made).dir, { recursive: true, force: true });
});

/**
 * Ingest reads its inputs streaming, within limits: a zip bomb, a gigabyte of whitespace, a file
 * of one endless line or an endless data set line end in a one-line refusal (or, within a raised
 * limit, a normal run), and the whole run's peak memory, measured by GNU time, stays under 512 MiB.
 */
describe.each(dialects())('ingest within bounded memory (%s)', (dialect) => {
  let t: TestApp;
  let env: Record<string, string>;
  const points = async () => (await t.db.kysely.selectFrom('revenue_points').select('point_id').execute()).length;

  beforeAll(async () => {
    t = await startApp(dialect, { bundle: null });
    env = { CORPDATA_DATABASE: t.database.url, CORPDATA_DEMO: 'off' };
    expect((await corpdata(['ingest', 'sec-tickers', TICKERS], env)).code).toBe(0);
    await inputs();
  }, 120_000);
  afterAll(() => t.close());

  it('refuses a 1 GiB companyfacts entry unread, by the size its zip declares', async () => {
    const { paddedZip } = await inputs();
    const r = await corpdataPeak(['ingest', 'sec-companyfacts', paddedZip], env);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `${paddedZip}:CIK0000789019.json: is 1.0 GiB, over the limit of 256 MiB (CORPDATA_INGEST_MAX_JSON_BYTES)\n`,
    );
    expect(r.peakMiB).toBeLessThan(PEAK_MIB);
    expect(await points()).toBe(0);
  });

  it('streams the same entry through when the limit allows it: whitespace costs no memory', async () => {
    const { paddedZip } = await inputs();
    const r = await corpdataPeak(['ingest', 'sec-companyfacts', paddedZip], {
      ...env,
      CORPDATA_INGEST_MAX_JSON_BYTES: String(2 * GIB),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ filers: 1, companies_matched: 1, data_points: 1 });
    expect(r.peakMiB).toBeLessThan(PEAK_MIB);
    expect(await points()).toBe(1);
  });

  it('refuses a 2 GB one-line JSON file by its size, and within a raised limit at its first byte', async () => {
    const { hugeJson } = await inputs();
    const r = await corpdataPeak(['ingest', 'sec-companyfacts', hugeJson], env);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toBe(`${hugeJson}: is 1.9 GiB, over the limit of 256 MiB (CORPDATA_INGEST_MAX_JSON_BYTES)\n`);
    expect(r.peakMiB).toBeLessThan(PEAK_MIB);
    const raised = await corpdataPeak(['ingest', 'sec-companyfacts', hugeJson], {
      ...env,
      CORPDATA_INGEST_MAX_JSON_BYTES: String(4 * GIB),
    });
    expect(raised.code).not.toBe(0);
    expect(raised.stderr).toBe(`${hugeJson}: is not valid JSON (a value expected at byte 0)\n`);
    expect(raised.peakMiB).toBeLessThan(PEAK_MIB);
  });

  it('refuses a data set line over the line limit in one line on stderr, without a stack trace', async () => {
    const { longLineZip } = await inputs();
    const r = await corpdataPeak(['ingest', 'sec-fsds', longLineZip], env);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`${longLineZip}:num.txt:2: is longer than the limit of 1 MiB (CORPDATA_INGEST_MAX_LINE_BYTES)\n`);
    expect(r.stderr).not.toContain('    at ');
    expect(r.peakMiB).toBeLessThan(PEAK_MIB);
    const small = await corpdataPeak(['ingest', 'sec-fsds', longLineZip], {
      ...env,
      CORPDATA_INGEST_MAX_FSDS_ENTRY_BYTES: String(100 * MIB),
    });
    expect(small.stderr).toBe(
      `${longLineZip}:num.txt: is 600.0 MiB, over the limit of 100 MiB (CORPDATA_INGEST_MAX_FSDS_ENTRY_BYTES)\n`,
    );
    expect(await points()).toBe(1);
  });

  it('refuses a ticker file over the JSON limit, and a limit that is not a number', async () => {
    const r = await corpdata(['ingest', 'sec-tickers', TICKERS], { ...env, CORPDATA_INGEST_MAX_JSON_BYTES: '1024' });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(
      /^.*company_tickers_exchange\.json: is [0-9.]+ KiB, over the limit of 1 KiB \(CORPDATA_INGEST_MAX_JSON_BYTES\)\n$/,
    );
    const bad = await corpdata(['ingest', 'sec-tickers', TICKERS], { ...env, CORPDATA_INGEST_MAX_LINE_BYTES: '1MB' });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toBe('corpdata: CORPDATA_INGEST_MAX_LINE_BYTES must be a whole number\n');
  });
});
