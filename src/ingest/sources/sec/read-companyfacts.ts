import { DEFAULT_INGEST_LIMITS, type IngestLimits } from '../../../config.js';
import { perShareCurrency, perShareMillionths } from '../../../money/per-share.js';
import { ImportError } from '../../core/issues.js';
import { JsonReader } from '../../core/json-reader.js';
import { isIsoDate } from '../../filings/periods.js';
import type { FiledFact } from '../../filings/source.js';
import { readCikJsonInputs } from './cik-json-inputs.js';
import { isAccession, normalizeCik } from './rules.js';
import type { SecFiler } from './sec-source.js';

const FILE_RE = /^CIK[0-9]{10}\.json$/i;

/**
 * The filers of SEC companyfacts input, one file at a time: `CIK##########.json` files, folders
 * of them, and SEC's bulk companyfacts.zip read entry by entry. Each document is streamed and
 * only the facts of `concepts` (those the figure specs read) are kept, so memory holds one
 * filer's kept facts whatever the file's size; a file or entry over `limits.maxJsonBytes` is refused. A file that is not valid
 * companyfacts JSON stops the read with an {@link ImportError} naming it (and the fact, where
 * one is at fault).
 */
export function readCompanyFacts(
  paths: readonly string[],
  concepts: ReadonlySet<string>,
  limits: IngestLimits = DEFAULT_INGEST_LIMITS,
): AsyncGenerator<SecFiler> {
  return readCikJsonInputs(paths, limits, FILE_RE, (chunks, source) => readFiler(chunks, source, concepts));
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * One companyfacts document: `{cik, entityName, facts: {taxonomy: {Concept: {units: {unit: [fact…]}}}}}`,
 * compact as SEC serves it or re-indented, `cik` a number or a padded string. The document is
 * read as it streams in: only the facts of `concepts` are materialized, one at a time, and each
 * must be whole and well formed; everything else is checked as JSON and let go.
 */
export async function readFiler(chunks: AsyncIterable<Buffer>, source: string, concepts: ReadonlySet<string>): Promise<SecFiler> {
  const refuse = (message: string): never => {
    throw new ImportError([{ file: source, line: 0, message }]);
  };
  const reader = new JsonReader(chunks, source);
  try {
    return await readDocument(reader, refuse, concepts);
  } finally {
    await reader.close();
  }
}

async function readDocument(
  reader: JsonReader,
  refuse: (message: string) => never,
  concepts: ReadonlySet<string>,
): Promise<SecFiler> {
  /** Reads `{`… when it comes; anything else is checked as JSON, then refused with `message`. */
  const object = async (message: string): Promise<void> => {
    if ((await reader.peek()) === 0x7b) return;
    await reader.skip();
    refuse(message);
  };
  await object('is not a companyfacts object');
  let cikValue: unknown;
  let entityName: unknown;
  let facts: FiledFact[] | undefined;
  for await (const key of reader.entries()) {
    if (key === 'cik') cikValue = await reader.value();
    else if (key === 'entityName') entityName = await reader.value();
    else if (key === 'facts') {
      await object('has no facts object');
      facts = await readFacts(reader, object, refuse, concepts);
    } else await reader.skip();
  }
  await reader.end();
  const cik = normalizeCik(cikValue);
  if (cik === undefined) return refuse('has no valid cik');
  const name = typeof entityName === 'string' && entityName.trim() !== '' ? entityName.trim() : `CIK ${cik}`;
  if (facts === undefined) return refuse('has no facts object');
  return { cik, name, facts, source: reader.source };
}

/** The facts of `concepts` in a `facts` object, the reader at its `{`. */
async function readFacts(
  reader: JsonReader,
  object: (message: string) => Promise<void>,
  refuse: (message: string) => never,
  concepts: ReadonlySet<string>,
): Promise<FiledFact[]> {
  const facts: FiledFact[] = [];
  for await (const taxonomy of reader.entries()) {
    await object(`facts.${taxonomy} is not an object`);
    for await (const local of reader.entries()) {
      const concept = `${taxonomy}:${local}`;
      if (!concepts.has(concept)) {
        await reader.skip();
        continue;
      }
      await object(`${concept} has no units`);
      let units = false;
      for await (const key of reader.entries()) {
        if (key !== 'units') {
          await reader.skip();
          continue;
        }
        await object(`${concept} has no units`);
        units = true;
        for await (const unit of reader.entries()) {
          if ((await reader.peek()) !== 0x5b) {
            await reader.skip();
            refuse(`${concept} ${unit} is not a list of facts`);
          }
          await reader.eachValue((item, i) => {
            const fact = factOf(item, `${concept} ${unit} fact ${i + 1}`, concept, unit, refuse);
            if (fact !== undefined) facts.push(fact);
          });
        }
      }
      if (!units) refuse(`${concept} has no units`);
    }
  }
  return facts;
}

/** A value from the file as a refusal shows it: short, so that a message stays one readable line. */
function shown(value: unknown): string {
  const text = String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** One fact, checked: `at` names it in a refusal. */
function factOf(
  item: unknown,
  at: string,
  concept: string,
  unit: string,
  refuse: (message: string) => never,
): FiledFact | undefined {
  if (!isObject(item)) return refuse(`${at} is not an object`);
  const { start, end, val, accn, form, filed } = item;
  if (typeof end !== 'string' || !isIsoDate(end)) return refuse(`${at}: end "${shown(end)}" is not a date`);
  if (start !== undefined && (typeof start !== 'string' || !isIsoDate(start))) {
    return refuse(`${at}: start "${shown(start)}" is not a date`);
  }
  if (typeof accn !== 'string' || !isAccession(accn)) return refuse(`${at}: accn "${shown(accn)}" is not an accession number`);
  if (typeof form !== 'string' || form === '') return refuse(`${at}: form is missing`);
  if (typeof filed !== 'string' || !isIsoDate(filed)) return refuse(`${at}: filed "${shown(filed)}" is not a date`);
  if (typeof val !== 'number' || !Number.isFinite(val))
    return refuse(`${at} (accession ${accn}): value ${shown(val)} is not a number`);
  // A per-share value (EPS) is a decimal, carried in millionths. A fraction in any other unit is no
  // figure: a money figure is whole, and a per-share value tagged in plain USD (Boeing's 10-K of
  // 2010) is not in a per-share unit; it is left out, never the whole file refused for it.
  const value = perShareCurrency(unit) !== undefined ? perShareMillionths(val) : Number.isInteger(val) ? val : undefined;
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value)) return refuse(`${at} (accession ${accn}): value ${shown(val)} is beyond 2^53`);
  const fact: FiledFact = { concept, start: start ?? end, end, value, unit, accession: accn, form, filed };
  // An instant (no start): a balance at its date (design §18.1), never a year's amount.
  return start === undefined ? { ...fact, instant: true } : fact;
}
