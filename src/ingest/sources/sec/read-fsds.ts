import { countryName } from '../../../catalog/country-names.js';
import { DEFAULT_INGEST_LIMITS, type IngestLimits } from '../../../config.js';
import { isCurrency } from '../../../money/currencies.js';
import { perShareCurrency, perShareMillionths, perShareUnit } from '../../../money/per-share.js';
import { ImportError } from '../../core/issues.js';
import { readLines } from '../../core/line-reader.js';
import { entryChunks, type ZipEntry, zipEntries } from '../../core/zip-entries.js';
import type { FiledFact } from '../../filings/source.js';
import { isAccession, normalizeCik } from './rules.js';
import type { SecFiler } from './sec-source.js';

interface Submission {
  cik: string;
  name: string;
  /** The business address's country (sub.txt `countryba`, ISO 3166), as the catalog writes it; undefined when not given. */
  country: string | undefined;
  form: string;
  filed: string;
}

/** Concepts of a value per share (`EarningsPerShareDiluted`, `DilutedEarningsLossPerShare`). */
const PER_SHARE_CONCEPT_RE = /PerShare/;
/** `20090630` → `2009-06-30`, or undefined when it is not such a date. */
function isoDate(v: string): string | undefined {
  if (!/^[0-9]{8}$/.test(v)) return undefined;
  const d = `${v.slice(0, 4)}-${v.slice(4, 6)}-${v.slice(6, 8)}`;
  return Number.isNaN(Date.parse(`${d}T00:00:00Z`)) ? undefined : d;
}

/** A data set's taxonomy version (`us-gaap/2009`, `ifrs/2019`) as a concept prefix; custom tags have none. */
function prefixOf(version: string): string | undefined {
  const family = version.split('/')[0];
  if (family === 'us-gaap') return 'us-gaap';
  if (family === 'ifrs' || family === 'ifrs-full') return 'ifrs-full';
  return undefined;
}

/**
 * The tab-separated rows of one entry, header first, each with its line number. The entry is
 * streamed line by line: one over the entry or line limit is refused as soon as it passes it.
 */
async function* rows(
  entry: ZipEntry,
  source: string,
  limits: IngestLimits,
): AsyncGenerator<{ line: number; cells: Map<string, string> }> {
  const chunks = entryChunks(entry, { bytes: limits.maxFsdsEntryBytes, setting: 'CORPDATA_INGEST_MAX_FSDS_ENTRY_BYTES' }, source);
  let header: string[] | undefined;
  let line = 0;
  for await (const batch of readLines(chunks, limits.maxLineBytes, source, 'CORPDATA_INGEST_MAX_LINE_BYTES')) {
    for (const text of batch) {
      line++;
      if (text === '') continue;
      const fields = text.split('\t');
      if (header === undefined) {
        header = fields;
        continue;
      }
      if (fields.length !== header.length) {
        throw new ImportError([{ file: source, line, message: `has ${fields.length} fields, the header has ${header.length}` }]);
      }
      yield { line, cells: new Map(header.map((h, i) => [h, fields[i] ?? ''])) };
    }
  }
}

function need(cells: Map<string, string>, columns: readonly string[], source: string, line: number): void {
  const missing = columns.filter((c) => !cells.has(c));
  if (missing.length > 0) throw new ImportError([{ file: source, line, message: `missing column(s) ${missing.join(', ')}` }]);
}

/** The one entry named `name` (any folder) of a data set zip. */
async function findEntry<T>(path: string, name: string, read: (entry: ZipEntry, source: string) => Promise<T>): Promise<T> {
  try {
    for await (const entry of zipEntries(path)) {
      if (entry.name.split('/').pop() === name) return await read(entry, `${path}:${name}`);
    }
  } catch (error) {
    if (error instanceof ImportError) throw error;
    throw new ImportError([{ file: path, line: 0, message: `is not a readable zip: ${(error as Error).message}` }]);
  }
  throw new ImportError([{ file: path, line: 0, message: `holds no ${name}: a data set needs sub.txt and num.txt` }]);
}

/**
 * The filers of SEC Financial Statement Data Set zips (one per quarter): sub.txt gives each
 * filing's filer, form and filed date; num.txt is streamed and only its values of `concepts` (those
 * the figure specs read) are kept,
 * without segments or co-registrants, for four quarters (the data set's only sign of a year: it
 * gives no start date, so a figure from it has none). A filer's values from every zip are
 * gathered before it is handed on. Decimals of a whole value (`49694000000.0000`) are dropped;
 * a fractional value refuses the input. An entry or a line over `limits` refuses it too.
 */
export async function* readDataSets(
  paths: readonly string[],
  concepts: ReadonlySet<string>,
  limits: IngestLimits = DEFAULT_INGEST_LIMITS,
): AsyncGenerator<SecFiler> {
  const filers = new Map<string, SecFiler>();
  for (const path of paths) {
    const submissions = await findEntry(path, 'sub.txt', async (entry, source) => {
      const subs = new Map<string, Submission>();
      for await (const { line, cells } of rows(entry, source, limits)) {
        need(cells, ['adsh', 'cik', 'name', 'form', 'filed'], source, line);
        const adsh = cells.get('adsh') ?? '';
        const cik = normalizeCik(cells.get('cik'));
        const filed = isoDate(cells.get('filed') ?? '');
        if (!isAccession(adsh) || cik === undefined || filed === undefined) {
          throw new ImportError([{ file: source, line, message: 'adsh, cik or filed is malformed' }]);
        }
        subs.set(adsh, {
          cik,
          name: (cells.get('name') ?? '').trim() || `CIK ${cik}`,
          country: countryName(cells.get('countryba') ?? ''),
          form: cells.get('form') ?? '',
          filed,
        });
      }
      return subs;
    });
    await findEntry(path, 'num.txt', async (entry, source) => {
      for await (const { line, cells } of rows(entry, source, limits)) {
        need(cells, ['adsh', 'tag', 'version', 'ddate', 'qtrs', 'uom', 'value'], source, line);
        const prefix = prefixOf(cells.get('version') ?? '');
        const concept = `${prefix}:${cells.get('tag')}`;
        if (prefix === undefined || !concepts.has(concept)) continue;
        const adsh = cells.get('adsh') ?? '';
        const sub = submissions.get(adsh);
        if (sub === undefined) throw new ImportError([{ file: source, line, message: `adsh ${adsh} is not in sub.txt` }]);
        const filer: SecFiler = filers.get(sub.cik) ?? {
          cik: sub.cik,
          name: sub.name,
          ...(sub.country === undefined ? {} : { country: sub.country }),
          facts: [],
          source: path,
        };
        filers.set(sub.cik, filer);
        const raw = cells.get('value') ?? '';
        if (raw === '') continue;
        const uom = cells.get('uom') ?? '';
        // A per-share value (EPS) is a decimal, carried in millionths; every other is a whole amount.
        // The data sets write a per-share concept's unit as its currency (`USD`): it is per share.
        const unit = PER_SHARE_CONCEPT_RE.test(concept) && isCurrency(uom) ? perShareUnit(uom) : uom;
        const perShare = perShareCurrency(unit) !== undefined;
        const whole = /^-?[0-9]+(\.0*)?$/.test(raw);
        // A fraction in a unit that is no currency (`pure`) is never a figure: left out.
        if (!perShare && !whole && !isCurrency(unit)) continue;
        if (!perShare && !whole) {
          throw new ImportError([{ file: source, line, message: `value ${raw} of ${concept} is not a whole number` }]);
        }
        const value = perShare ? perShareMillionths(raw) : Number(raw.split('.')[0]);
        if (value === undefined) {
          throw new ImportError([{ file: source, line, message: `value ${raw} of ${concept} is not a decimal number` }]);
        }
        const end = isoDate(cells.get('ddate') ?? '');
        if (end === undefined || !Number.isSafeInteger(value)) {
          throw new ImportError([{ file: source, line, message: 'ddate or value is malformed' }]);
        }
        if ((cells.get('segments') ?? '') !== '' || (cells.get('coreg') ?? '') !== '') continue;
        // Four quarters is a year; no quarter an instant (a balance, design §18.1); anything else a
        // period that is not a year, left out as such.
        const qtrs = cells.get('qtrs');
        const start = qtrs === '4' ? null : end;
        const fact: FiledFact = { concept, start, end, value, unit, accession: adsh, form: sub.form, filed: sub.filed };
        filer.facts.push(qtrs === '0' ? { ...fact, instant: true } : fact);
      }
    });
  }
  yield* filers.values();
}
