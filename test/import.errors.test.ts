import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/cli/open-database.js';
import { connect, type Db } from '../src/db/connect.js';
import { BUNDLE_FILE_NAMES, ImportError } from '../src/ingest/sources/bundle/bundle-files.js';
import { importBundle } from '../src/ingest/sources/bundle/import-bundle.js';
import { corpdata } from './support/cli.js';
import { BUNDLES, DATASETS } from './support/datasets.js';
import { dialects } from './support/dialects.js';
import { FIXTURE_BUNDLE, testConfig } from './support/test-app.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

type Edit = (dir: string) => void;

/** Every file a bundle may hold: the core files, then each dataset's own. */
const BUNDLE_FILES = [
  ...new Set([...BUNDLE_FILE_NAMES, ...DATASETS.flatMap((d) => (d.bundle === undefined ? [] : [d.bundle.file]))]),
];

/** Replaces `from` by `to` in one file of the bundle copy; the edit must apply. */
const replace =
  (file: string, from: string | RegExp, to: string): Edit =>
  (dir) => {
    const path = join(dir, file);
    const before = readFileSync(path, 'utf8');
    const after = before.replace(from, to);
    if (after === before) throw new Error(`edit of ${file} did not apply`);
    writeFileSync(path, after);
  };
const write =
  (file: string, content: string | Buffer): Edit =>
  (dir) =>
    writeFileSync(join(dir, file), content);
const append =
  (file: string, line: string): Edit =>
  (dir) =>
    writeFileSync(join(dir, file), readFileSync(join(dir, file), 'utf8') + line);

/** Gives every row of `file` the further columns `columns`, empty, then applies `then`. */
const withColumns =
  (file: string, columns: string[], then: Edit): Edit =>
  (dir) => {
    const path = join(dir, file);
    const [header = '', ...rows] = readFileSync(path, 'utf8').trimEnd().split('\n');
    const blank = ','.repeat(columns.length);
    writeFileSync(path, `${[`${header},${columns.join(',')}`, ...rows.map((r) => r + blank)].join('\n')}\n`);
    then(dir);
  };

const ALPHA = '00000000-0000-4000-8000-000000000001';
/** documents.csv's optional columns, in the order export writes them. */
const DOCUMENT_OPTIONAL = ['form', 'accession', 'kind', 'main_document_url', 'source', 'source_key'];
const DOC1 = '10000000-0000-4000-8000-000000000001';
const UNKNOWN = '99999999-9999-4999-8999-999999999999';

/** Each kind of bad bundle, with exactly the lines the operator must see. */
const CASES: Array<[string, Edit, string[]]> = [
  [
    'wrong ISIN check digit',
    replace('companies.csv', 'DE000ALPH005', 'DE000ALPH006'),
    ['companies.csv:2: isin "DE000ALPH006" is not a valid ISIN (shape or check digit)'],
  ],
  [
    'wrong LEI check digits',
    replace('companies.csv', '5299000ALPHA0000AB44', '5299000ALPHA0000AB45'),
    ['companies.csv:2: lei "5299000ALPHA0000AB45" is not a valid LEI (shape or check digits)'],
  ],
  [
    'MIC not in the spec list',
    replace('companies.csv', 'BETA,XNYS', 'BETA,XNAS'),
    ['companies.csv:3: mic_code "XNAS" is not one of the spec\'s MIC codes'],
  ],
  [
    'currency not in the spec list',
    replace('revenues.csv', '22511000000,EUR', '22511000000,XYZ'),
    ['revenues.csv:2: currency "XYZ" is not one of the spec\'s currencies'],
  ],
  [
    'country that is no name',
    replace('companies.csv', 'Gamma Holdings plc,United Kingdom', 'Gamma Holdings plc,123'),
    ['companies.csv:4: country "123" is not a country name'],
  ],
  [
    'impossible date',
    replace('documents.csv', '2023-03-15', '2023-02-30'),
    ['documents.csv:2: published_on "2023-02-30" is not a date (YYYY-MM-DD)'],
  ],
  [
    'reporting period out of range',
    replace('documents.csv', '2023-03-15,2022', '2023-03-15,1800'),
    ['documents.csv:2: reporting_period 1800 is outside 1990..2100'],
  ],
  [
    'value with decimals',
    replace('revenues.csv', '22511000000,EUR', '22511000000.5,EUR'),
    ['revenues.csv:2: value "22511000000.5" is not an integer'],
  ],
  [
    'value beyond the safe integer range',
    replace('revenues.csv', '22511000000,EUR', '9007199254740993,EUR'),
    ['revenues.csv:2: value 9007199254740993 is beyond the safe integer range (±9007199254740991)'],
  ],
  [
    'document of an unknown company',
    replace('documents.csv', `${DOC1},${ALPHA}`, `${DOC1},${UNKNOWN}`),
    [
      `documents.csv:2: company_id ${UNKNOWN} is not in companies.csv nor in the database`,
      `revenues.csv:2: document ${DOC1} belongs to company ${UNKNOWN}, not ${ALPHA}`,
    ],
  ],
  [
    'figure of an unknown document',
    replace('revenues.csv', `${ALPHA},${DOC1},2022`, `${ALPHA},${UNKNOWN},2022`),
    [`revenues.csv:2: document_id ${UNKNOWN} is not in documents.csv nor in the database`],
  ],
  [
    "figure whose company is not its document's",
    replace('revenues.csv', `${ALPHA},${DOC1},2022`, `00000000-0000-4000-8000-000000000002,${DOC1},2022`),
    [`revenues.csv:2: document ${DOC1} belongs to company ${ALPHA}, not 00000000-0000-4000-8000-000000000002`],
  ],
  [
    'duplicate company_id',
    append('companies.csv', `${ALPHA},Alpha Again,Germany,,ALPH2,XETR,\n`),
    [`companies.csv:11: duplicate company_id ${ALPHA}`],
  ],
  [
    'duplicate document_id',
    append('documents.csv', `${DOC1},${ALPHA},Again,https://example.com/x,2023-01-01,2022,processed\n`),
    [`documents.csv:15: duplicate document_id ${DOC1}`],
  ],
  [
    'duplicate figure',
    append('revenues.csv', `${ALPHA},${DOC1},2022,1,EUR\n`),
    [`revenues.csv:16: duplicate figure: document ${DOC1} for period 2022 is given twice`],
  ],
  ['duplicate FX rate', append('fx_rates.csv', 'EUR,2022,1.1,again\n'), ['fx_rates.csv:10: duplicate rate for EUR 2022']],
  [
    'missing FX rate (neither in the bundle nor the database)',
    replace('revenues.csv', '22511000000,EUR', '22511000000,CHF'),
    ['revenues.csv:2: no FX rate for CHF 2022: add it to fx_rates.csv (a figure is never stored without its USD value)'],
  ],
  [
    'missing FX rate for a sub-unit currency',
    replace('revenues.csv', '22511000000,EUR', '22511000000,ILA'),
    ['revenues.csv:2: no FX rate for ILS 2022: add it to fx_rates.csv (a figure is never stored without its USD value)'],
  ],
  [
    'a rate for USD',
    append('fx_rates.csv', 'USD,2023,1,nonsense\n'),
    ['fx_rates.csv:10: currency USD needs no rate: USD figures pass through unchanged'],
  ],
  [
    'unclosed quote',
    append('documents.csv', `${UNKNOWN},${ALPHA},"Unclosed title,https://example.com/x,2023-01-01,2022,processed\n`),
    ['documents.csv:15: malformed CSV: a quoted field is never closed'],
  ],
  [
    'invalid UTF-8',
    (dir) =>
      writeFileSync(
        join(dir, 'companies.csv'),
        Buffer.concat([readFileSync(join(dir, 'companies.csv')), Buffer.from([0x41, 0xff, 0xfe, 0x0a])]),
      ),
    ['companies.csv:11: is not valid UTF-8'],
  ],
  [
    'missing column',
    replace(
      'documents.csv',
      /^document_id,company_id,title,source_url,published_on,reporting_period,status/,
      'document_id,company_id,title,source_url,published_on,reporting_period',
    ),
    ['documents.csv:1: missing column(s) status'],
  ],
  [
    'extra column',
    replace('listings.csv', /^company_id,ticker,mic_code,isin/, 'company_id,ticker,mic_code,isin,exchange'),
    ['listings.csv:1: unexpected column(s) exchange'],
  ],
  [
    'row with too many fields',
    append('listings.csv', `${ALPHA},ALPHZ,XLON,,extra\n`),
    ['listings.csv:4: has 5 fields, the header has 4'],
  ],
  [
    'ticker listed twice on one market',
    append('listings.csv', `${ALPHA},BETA,XNYS,\n`),
    ['listings.csv:4: ticker BETA on XNYS is listed twice in the bundle'],
  ],
  [
    'listing of an unknown company',
    append('listings.csv', `${UNKNOWN},ZZZ,XLON,\n`),
    [`listings.csv:4: company_id ${UNKNOWN} is not in companies.csv nor in the database`],
  ],
  [
    'ticker too long',
    replace('companies.csv', ',ALPH,XETR,', ',ALPHAALPHAALPHAA,XETR,'),
    ['companies.csv:2: ticker "ALPHAALPHAALPHAA" must be 1 to 15 characters without spaces'],
  ],
  [
    'unknown document status',
    replace('documents.csv', '2023-03-15,2022,processed', '2023-03-15,2022,done'),
    ['documents.csv:2: status "done" must be pending, processed or failed'],
  ],
  [
    'source URL that is no URL',
    replace('documents.csv', 'https://example.com/alpha/ar2022.pdf', 'ar2022.pdf'),
    ['documents.csv:2: source_url "ar2022.pdf" is not an http(s) URL'],
  ],
  ['empty file', write('fx_rates.csv', ''), ['fx_rates.csv:1: is empty: a header row is required']],
  [
    'company id that is no UUID',
    replace('companies.csv', `${ALPHA},Alpha`, 'alpha-1,Alpha'),
    ['companies.csv:2: company_id "alpha-1" is not a lower-case UUID'],
  ],
  [
    'misspelt file name',
    (dir) => renameSync(join(dir, 'revenues.csv'), join(dir, 'revenue.csv')),
    [`revenue.csv: is not a bundle file (${BUNDLE_FILES.join(', ')})`],
  ],
  [
    'ISIN used twice',
    replace('listings.csv', 'GB000ALPH005', 'US000BETA008'),
    ['listings.csv:2: isin US000BETA008 is used twice'],
  ],
  [
    'document kind neither financial nor sustainability',
    withColumns(
      'documents.csv',
      ['form', 'accession', 'kind'],
      replace('documents.csv', /2022,processed,,,$/m, '2022,processed,,,annual'),
    ),
    ['documents.csv:2: kind "annual" must be financial or sustainability'],
  ],
  [
    'document source without its key',
    withColumns(
      'documents.csv',
      DOCUMENT_OPTIONAL,
      replace('documents.csv', /2022,processed,,,,,,$/m, '2022,processed,,,,,esef,'),
    ),
    ['documents.csv:2: source and source_key go together: give both or neither'],
  ],
  [
    'source name not a name',
    withColumns(
      'documents.csv',
      DOCUMENT_OPTIONAL,
      replace('documents.csv', /2022,processed,,,,,,$/m, '2022,processed,,,,,ESEF!,AR-2022'),
    ),
    ['documents.csv:2: source "ESEF!" is not a source name (sec, esef, bundle…: lowercase letters, digits and hyphens)'],
  ],
  [
    'SEC document keyed by other than its accession number',
    withColumns(
      'documents.csv',
      DOCUMENT_OPTIONAL,
      replace('documents.csv', /2022,processed,,,,,,$/m, '2022,processed,10-K,0000320193-23-000106,,,sec,0000320193-23-000107'),
    ),
    [
      'documents.csv:2: source_key "0000320193-23-000107" of an sec document must be its accession number, given in the accession column too',
    ],
  ],
  [
    'document with an accession number from a source other than SEC',
    withColumns(
      'documents.csv',
      DOCUMENT_OPTIONAL,
      replace('documents.csv', /2022,processed,,,,,,$/m, '2022,processed,10-K,0000320193-23-000106,,,esef,AR-2022'),
    ),
    ['documents.csv:2: a document with an accession number comes from source sec, not "esef"'],
  ],
  [
    'bundle document keyed by another document_id',
    withColumns(
      'documents.csv',
      DOCUMENT_OPTIONAL,
      replace('documents.csv', /2022,processed,,,,,,$/m, `2022,processed,,,,,bundle,${UNKNOWN}`),
    ),
    [`documents.csv:2: source_key "${UNKNOWN}" of a bundle document must be its document_id`],
  ],
  [
    "two documents under one source's key",
    withColumns('documents.csv', DOCUMENT_OPTIONAL, (dir) => {
      replace('documents.csv', /2022,processed,,,,,,$/m, '2022,processed,,,,,esef,AR-2022')(dir);
      replace('documents.csv', /2023,processed,,,,,,$/m, '2023,processed,,,,,esef,AR-2022')(dir);
    }),
    ["documents.csv:3: source esef key AR-2022 is another document's"],
  ],
  [
    'candidate concepts not written concept=value',
    withColumns(
      'revenues.csv',
      ['concept', 'period_start', 'period_end', 'candidates', 'confirmed_by'],
      replace('revenues.csv', '22511000000,EUR,,,,,', '22511000000,EUR,,,,us-gaap:Revenues:17000,'),
    ),
    ['revenues.csv:2: candidates: "us-gaap:Revenues:17000" is not a taxonomy:Name concept=integer'],
  ],
  [
    'confirming document not written document_id=value',
    withColumns(
      'revenues.csv',
      ['concept', 'period_start', 'period_end', 'candidates', 'confirmed_by'],
      replace('revenues.csv', '22511000000,EUR,,,,,', `22511000000,EUR,,,,,${DOC1}=1.5`),
    ),
    [`revenues.csv:2: confirmed_by: "${DOC1}=1.5" is not a document_id=integer`],
  ],
  [
    "source's trace fields not a JSON list of labelled fields",
    withColumns(
      'revenues.csv',
      ['concept', 'period_start', 'period_end', 'candidates', 'confirmed_by', 'source_detail'],
      replace('revenues.csv', '22511000000,EUR,,,,,,', '22511000000,EUR,,,,,,"[{""label"":""LEI""}]"'),
    ),
    ['revenues.csv:2: source_detail is not a JSON list of {"label","value","kind"} fields'],
  ],
];

/** Every table's row count and a hash of its sorted content: equal means unchanged. */
async function fingerprint(db: Db): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const table of ['companies', 'listings', 'documents', 'revenue_points', 'fx_rates', 'versions']) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db.kysely);
    const lines = rows.map((r) => JSON.stringify(Object.entries(r).sort())).sort();
    out[table] = `${rows.length}:${createHash('sha256').update(lines.join('\n')).digest('hex')}`;
  }
  return out;
}

describe.each(dialects())('refused bundles (%s)', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  const dirs: string[] = [];
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    db = (await openDatabase(testConfig(database), BUNDLES)).db;
    await importBundle(db.kysely, FIXTURE_BUNDLE, BUNDLES);
  });
  afterAll(async () => {
    await db.close();
    await database.drop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  function badBundle(edit: Edit): string {
    const dir = mkdtempSync(join(tmpdir(), 'corpdata-bad-'));
    dirs.push(dir);
    cpSync(FIXTURE_BUNDLE, dir, { recursive: true });
    edit(dir);
    return dir;
  }

  it('has at least 20 kinds of bad bundle', () => expect(CASES.length).toBeGreaterThanOrEqual(20));

  it.each(CASES)('refuses %s with file:line messages and changes nothing', async (_name, edit, expected) => {
    const dir = badBundle(edit);
    const before = await fingerprint(db);
    const error = await importBundle(db.kysely, dir, BUNDLES).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).message.split('\n')).toEqual(expected);
    expect(await fingerprint(db)).toEqual(before);
  });

  it('reports through the CLI on stderr, exits non-zero and prints nothing on stdout', async () => {
    const dir = badBundle(replace('companies.csv', 'DE000ALPH005', 'DE000ALPH006'));
    const before = await fingerprint(db);
    const r = await corpdata(['import', dir], { CORPDATA_DATABASE: database.url });
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('companies.csv:2: isin "DE000ALPH006" is not a valid ISIN (shape or check digit)');
    expect(await fingerprint(db)).toEqual(before);
  });

  it('writes none of the new, valid rows of a bundle refused on its very last line', async () => {
    const NEW_COMPANY = '00000000-0000-4000-8000-0000000000aa';
    const NEW_DOC = '10000000-0000-4000-8000-0000000000aa';
    const dir = badBundle((d) => {
      replace('companies.csv', 'Alpha Industries AG', 'Alpha Renamed AG')(d);
      append('companies.csv', `${NEW_COMPANY},Newco SE,France,,NEWCO,XPAR,\n`)(d);
      append('fx_rates.csv', 'EUR,2019,1.11947,IMF IFS annual average (test fixture)\n')(d);
      append(
        'documents.csv',
        `${NEW_DOC},${NEW_COMPANY},Newco 2023,https://example.com/newco.pdf,2024-03-01,2023,processed\n`,
      )(d);
      append('revenues.csv', `${NEW_COMPANY},${NEW_DOC},2023,1000000,EUR\n`)(d);
      append('revenues.csv', `${NEW_COMPANY},${NEW_DOC},2023,1000000.5,EUR\n`)(d);
    });
    const lastLine = readFileSync(join(dir, 'revenues.csv'), 'utf8').trimEnd().split('\n').length;
    const before = await fingerprint(db);
    await expect(importBundle(db.kysely, dir, BUNDLES)).rejects.toThrow(
      `revenues.csv:${lastLine}: value "1000000.5" is not an integer`,
    );
    expect(await fingerprint(db)).toEqual(before);
  });

  it('refuses to apply a bundle checked while another import committed, and applies it when run again', async () => {
    const mine = badBundle(append('companies.csv', '00000000-0000-4000-8000-0000000000b1,Mine SA,France,,MINE,XPAR,\n'));
    const theirs = badBundle(append('companies.csv', '00000000-0000-4000-8000-0000000000b2,Theirs SA,France,,THEIRS,XPAR,\n'));
    const other = connect(database.config);
    const named = async () =>
      (
        await db.kysely
          .selectFrom('companies')
          .select('name')
          .where('name', 'in', ['Mine SA', 'Theirs SA'])
          .orderBy('name')
          .execute()
      ).map((r) => r.name);
    try {
      // The other import runs to its commit between this one's checks and its write.
      const error = await importBundle(db.kysely, mine, BUNDLES, {
        onPhase: async (phase) => {
          if (phase === 'applying') await importBundle(other.kysely, theirs, BUNDLES);
        },
      }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ImportError);
      expect((error as ImportError).message).toBe(
        `${mine}: another import changed the data while this one was checked: import it again`,
      );
      expect(await named()).toEqual(['Theirs SA']);
    } finally {
      await other.close();
    }
    await importBundle(db.kysely, mine, BUNDLES);
    expect(await named()).toEqual(['Mine SA', 'Theirs SA']);
  });

  it('reports every bad line of every file at once, in bundle order', async () => {
    const dir = badBundle((d) => {
      replace('companies.csv', 'DE000ALPH005', 'DE000ALPH006')(d);
      replace('documents.csv', '2023-03-15', '2023-02-30')(d);
      replace('revenues.csv', '22511000000,EUR', '22511000000,XYZ')(d);
    });
    const error = await importBundle(db.kysely, dir, BUNDLES).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((error as ImportError).message.split('\n')).toEqual([
      'companies.csv:2: isin "DE000ALPH006" is not a valid ISIN (shape or check digit)',
      'documents.csv:2: published_on "2023-02-30" is not a date (YYYY-MM-DD)',
      'revenues.csv:2: currency "XYZ" is not one of the spec\'s currencies',
    ]);
  });

  it('accepts a byte-order mark and quoted fields with commas and quotes', async () => {
    const dir = badBundle((d) => {
      writeFileSync(
        join(d, 'companies.csv'),
        Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), readFileSync(join(d, 'companies.csv'))]),
      );
      replace('companies.csv', 'Alpha Industries AG', '"Alpha Industries, ""The"" AG"')(d);
    });
    await importBundle(db.kysely, dir, BUNDLES);
    const row = await db.kysely.selectFrom('companies').select('name').where('company_id', '=', ALPHA).executeTakeFirstOrThrow();
    expect(row.name).toBe('Alpha Industries, "The" AG');
    await importBundle(db.kysely, FIXTURE_BUNDLE, BUNDLES);
  });

  it('imports the same bundle twice without changing anything but the data version', async () => {
    await importBundle(db.kysely, FIXTURE_BUNDLE, BUNDLES);
    const before = await fingerprint(db);
    await importBundle(db.kysely, FIXTURE_BUNDLE, BUNDLES);
    const after = await fingerprint(db);
    expect({ ...after, versions: '' }).toEqual({ ...before, versions: '' });
  });
});
